/** The 'Theme' controls: a compact select for the top bar, a radio group for Settings. */
import { useId } from "react";
import { appMessages, theme as themeConfig, type Theme } from "../../../../contract";
import { useTheme } from "../../stores/theme";
import { MonitorIcon, MoonIcon, SunIcon } from "./icons";

export const themeIcons: Record<Theme, typeof SunIcon> = { light: SunIcon, dark: MoonIcon, system: MonitorIcon };

/** A native select labelled 'Theme' with Light, Dark and System. */
export function ThemeSelect({ className = "" }: { className?: string }) {
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  const Icon = themeIcons[theme];
  return (
    <div className={`relative ${className}`}>
      <Icon size={16} className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
      <select
        aria-label={appMessages.theme}
        value={theme}
        onChange={(e) => setTheme(e.target.value as Theme)}
        className="h-9 appearance-none rounded-lg border border-line bg-surface pr-3 pl-8 text-sm text-fg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-accent"
      >
        {themeConfig.values.map((value) => (
          <option key={value} value={value}>
            {appMessages.themeNames[value]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Three large radio cards (Settings → Appearance), a radiogroup named 'Theme'. */
export function ThemeRadioGroup() {
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  const name = useId();
  return (
    <fieldset>
      <legend className="sr-only">{appMessages.theme}</legend>
      <div role="radiogroup" aria-label={appMessages.theme} className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {themeConfig.values.map((value) => {
          const Icon = themeIcons[value];
          const checked = theme === value;
          return (
            <label
              key={value}
              className={`flex cursor-pointer items-center gap-3 rounded-lg border px-4 py-3 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent ${
                checked ? "border-accent bg-accent-soft text-fg" : "border-line-strong bg-surface text-fg hover:bg-subtle"
              }`}
            >
              <input
                type="radio"
                name={name}
                value={value}
                checked={checked}
                onChange={() => setTheme(value)}
                className="sr-only"
              />
              <Icon size={18} className={checked ? "text-accent-text" : "text-muted"} />
              <span className="font-medium">{appMessages.themeNames[value]}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
