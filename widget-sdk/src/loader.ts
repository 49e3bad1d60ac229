/**
 * widget.js, the script-tag loader (≤ 3 KB gzip):
 *   <script src="{origin}/widget.js" data-assistant-key="{key}" data-host="{origin}" async></script>
 * Optional: data-locale, data-nonce (else the tag's own nonce), data-position, data-open="true",
 * data-user-token (a signed visitor; later: Tala.identify(token) / Tala.logout()).
 * It exposes `window.Tala` at once and loads widget-core.js on idle or first interaction.
 * Everything is caught: a broken widget never breaks the host page.
 */
import { createFacade, type TalaApi } from "./facade";
import { loadCoreScript } from "./load-script";
import { whenIdleOrInteraction } from "./schedule";
import type { TalaPosition } from "./types";

declare global {
  interface Window {
    Tala?: TalaApi;
  }
}

try {
  // currentScript is null when a tag manager runs the snippet's code itself: find the tag then.
  const script = (document.currentScript ?? document.querySelector("script[data-assistant-key]")) as HTMLScriptElement | null;
  // A second copy of the snippet on the same page adds nothing.
  if (script && !window.Tala) {
    const data = script.dataset;
    const host = data.host || new URL(script.src).origin;
    const tala = createFacade(loadCoreScript, whenIdleOrInteraction);
    window.Tala = tala;
    tala.init({
      apiKey: data.assistantKey || "",
      host,
      locale: data.locale,
      nonce: data.nonce || script.nonce || undefined,
      position: data.position as TalaPosition | undefined,
      open: data.open === "true",
      userToken: data.userToken || undefined,
    });
  }
} catch {
  // Never throw into the host page.
}
