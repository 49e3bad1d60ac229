/**
 * Theme (spec section 2): light, dark or system, stored under 'vite-ui-theme', applied as the class
 * 'light' or 'dark' on <html>. 'system' follows prefers-color-scheme live. The default is system.
 * app.html applies the stored choice before first paint; this store keeps it in sync afterwards.
 */
import { createStore, useStore } from "zustand";
import { theme as themeConfig, type Theme } from "../../../contract";
import { readItem, writeItem } from "../lib/storage";

export type ResolvedTheme = "light" | "dark";

export function parseTheme(value: string | null | undefined): Theme {
  return (themeConfig.values as readonly string[]).includes(value ?? "") ? (value as Theme) : themeConfig.defaultMain;
}

export function resolveTheme(choice: Theme, prefersDark: boolean): ResolvedTheme {
  if (choice === "system") return prefersDark ? "dark" : "light";
  return choice;
}

const darkQuery = () => globalThis.matchMedia?.("(prefers-color-scheme: dark)");

function apply(resolved: ResolvedTheme) {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  root.classList.remove("light", "dark");
  root.classList.add(resolved);
}

interface ThemeState {
  theme: Theme;
  resolved: ResolvedTheme;
  setTheme: (theme: Theme) => void;
}

export const themeStore = createStore<ThemeState>()((set) => {
  const initial = parseTheme(readItem("local", themeConfig.storageKey));
  return {
    theme: initial,
    resolved: resolveTheme(initial, darkQuery()?.matches ?? false),
    setTheme: (theme) => {
      writeItem("local", themeConfig.storageKey, theme);
      const resolved = resolveTheme(theme, darkQuery()?.matches ?? false);
      apply(resolved);
      set({ theme, resolved });
    },
  };
});

/** Applies the stored theme and follows the OS setting while the choice is 'system'. */
export function startThemeSync(): () => void {
  apply(themeStore.getState().resolved);
  const mq = darkQuery();
  const onSystemChange = () => {
    const { theme } = themeStore.getState();
    if (theme !== "system") return;
    const resolved = resolveTheme("system", mq?.matches ?? false);
    apply(resolved);
    themeStore.setState({ resolved });
  };
  // Another tab changed the choice: follow it.
  const onStorage = (e: StorageEvent) => {
    if (e.key === themeConfig.storageKey) themeStore.getState().setTheme(parseTheme(e.newValue));
  };
  mq?.addEventListener("change", onSystemChange);
  globalThis.addEventListener?.("storage", onStorage);
  return () => {
    mq?.removeEventListener("change", onSystemChange);
    globalThis.removeEventListener?.("storage", onStorage);
  };
}

export function useTheme<T>(selector: (s: ThemeState) => T): T {
  return useStore(themeStore, selector);
}
