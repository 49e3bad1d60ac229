import { css } from "./styles";

/** The widget's stylesheet in its shadow root: a constructed sheet (no CSP question), else a <style> with the nonce. */
export function applyStyles(root: ShadowRoot, nonce?: string) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch {
    const style = document.createElement("style");
    if (nonce) style.nonce = nonce;
    style.textContent = css;
    root.appendChild(style);
  }
}
