/**
 * Light or dark, following the host page: its own declaration first (`data-theme` or a `dark` class
 * on <html>, then its `color-scheme`), else the visitor's prefers-color-scheme.
 * The spec's widget default is light: a page that says nothing and a visitor with no dark
 * preference get light. Watches changes, so a page's theme switch restyles the widget at once.
 */
export function pageIsDark(): boolean {
  const html = document.documentElement;
  const declared = (html.getAttribute("data-theme") || "").toLowerCase();
  if (declared === "dark" || declared === "light") return declared === "dark";
  if (html.classList.contains("dark")) return true;
  const scheme = getComputedStyle(html).colorScheme.trim();
  if (scheme === "dark" || scheme === "only dark") return true;
  if (scheme === "light" || scheme === "only light") return false;
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

export function watchTheme(onChange: (dark: boolean) => void): () => void {
  const update = () => onChange(pageIsDark());
  const media = matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", update);
  const observer = new MutationObserver(update);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class", "data-theme", "style"] });
  update();
  return () => {
    media.removeEventListener("change", update);
    observer.disconnect();
  };
}
