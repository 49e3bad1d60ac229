/**
 * Inlined in <head>, before any paint: applies the stored theme choice as a class on <html>
 * exactly as the dashboard's theme provider does (key vite-ui-theme; light, dark or system).
 */
// Filled in from the contract by marketing/src/build.ts (importing the contract would bundle all of it).
declare const __THEME_KEY__: string;

let choice: string | null = null;
try {
  choice = localStorage.getItem(__THEME_KEY__);
} catch {
  // Storage can be blocked (privacy modes): fall back to the default.
}
const resolved =
  choice === "light" || choice === "dark" ? choice : matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
document.documentElement.classList.add(resolved);

export {};
