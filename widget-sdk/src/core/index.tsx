/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * widget-core.js: the widget itself (Preact, ≤ 15 KB gzip). Loaded by widget.js or the npm facade,
 * it defines `window.__talaWidgetCore(options, emit)`, which mounts one widget: a <tala-widget>
 * element on <body> whose shadow root holds all of the widget's markup and styles.
 */
import { h, render } from "preact";
import { CORE_GLOBAL, type CoreFactory } from "../types";
import { Controller } from "./controller";
import { applyStyles } from "./shadow-styles";
import { watchTheme } from "./theme";
import { App } from "./view";

/** Mounts one widget. The facade calls it and its handle's methods inside try/catch. */
export const mountWidget: CoreFactory = (options, emit) => {
  const host = document.createElement("tala-widget");
  const root = host.attachShadow({ mode: "open" });
  applyStyles(root, options.nonce);
  const c = new Controller(options, emit);
  const stopTheme = watchTheme((dark) => c.state.dark !== dark && c.set({ dark }));
  render(<App c={c} root={root} host={host} position={options.position} />, root);
  document.body.appendChild(host);
  c.start().catch(() => c.set({ hidden: true }));
  return {
    open: () => c.setOpen(true),
    close: () => c.setOpen(false),
    toggle: () => c.setOpen(!c.state.open),
    setLocale: (locale: string) => c.setLocale(locale),
    identify: (token, refresh) => c.identify(token, refresh),
    logout: () => c.logout(),
    destroy() {
      stopTheme();
      c.destroy();
      render(null, root);
      host.remove();
    },
  };
};

try {
  (window as unknown as Record<string, unknown>)[CORE_GLOBAL] ??= mountWidget;
} catch {
  // never into the host page
}
