/**
 * The signed-in user's menu (spec section 2): a button showing the first name (fallback 'User')
 * opening Settings, the Theme choice and Logout. WAI-ARIA menu button pattern (ui/use-menu-button.ts).
 */
import { Link } from "wouter";
import { appMessages, appRoutes, theme as themeConfig } from "../../../../contract";
import { displayFirstName, initials } from "../../lib/format";
import { signOut } from "../../lib/sign-out";
import { useAuth } from "../../stores/auth";
import { useTheme } from "../../stores/theme";
import { themeIcons } from "../ui/theme-controls";
import { CheckIcon, ChevronDownIcon, LogOutIcon, SettingsIcon } from "../ui/icons";
import { useMenuButton } from "../ui/use-menu-button";

const itemClasses =
  "flex w-full items-center gap-2.5 rounded-md px-2.5 py-2 text-left text-sm text-fg outline-none hover:bg-subtle focus:bg-subtle";

export function UserMenu() {
  const user = useAuth((s) => s.user);
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  const { open, setOpen, close, buttonProps, menuProps } = useMenuButton();
  const firstName = displayFirstName(user);

  return (
    <div className="relative">
      <button
        {...buttonProps}
        className="flex h-9 max-w-[11rem] items-center gap-2 rounded-lg pr-2 pl-1 text-sm font-medium text-fg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-accent"
      >
        <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-white">
          {initials(user)}
        </span>
        <span className="truncate">{firstName}</span>
        <ChevronDownIcon size={16} className="shrink-0 text-muted" />
      </button>

      {open && (
        <div
          {...menuProps}
          className="absolute right-0 z-40 mt-2 w-60 origin-top-right animate-fade-in rounded-xl border border-line bg-surface p-1.5 shadow-lg"
        >
          <div className="border-b border-line px-2.5 pt-1.5 pb-2.5" role="none">
            <p className="truncate text-sm font-medium text-fg">{[user?.firstName, user?.lastName].filter(Boolean).join(" ") || firstName}</p>
            {user?.email && <p className="truncate text-xs text-muted">{user.email}</p>}
          </div>
          <div className="py-1" role="none">
            <Link href={appRoutes.settings} role="menuitem" tabIndex={-1} className={itemClasses} onClick={() => close(false)}>
              <SettingsIcon size={16} className="text-muted" />
              Settings
            </Link>
          </div>
          <div role="group" aria-label={appMessages.theme} className="border-t border-line py-1">
            <p aria-hidden="true" className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-faint">
              {appMessages.theme}
            </p>
            {themeConfig.values.map((value) => {
              const Icon = themeIcons[value];
              return (
                <button
                  key={value}
                  type="button"
                  role="menuitemradio"
                  aria-checked={theme === value}
                  tabIndex={-1}
                  className={itemClasses}
                  onClick={() => setTheme(value)}
                >
                  <Icon size={16} className="text-muted" />
                  <span className="flex-1">{appMessages.themeNames[value]}</span>
                  {theme === value && <CheckIcon size={16} className="text-accent-text" />}
                </button>
              );
            })}
          </div>
          <div className="border-t border-line pt-1" role="none">
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={itemClasses}
              onClick={() => {
                setOpen(false);
                void signOut();
              }}
            >
              <LogOutIcon size={16} className="text-muted" />
              {appMessages.signOut}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
