/**
 * `@tala/widget`: Tala's embeddable chat widget for sites that bundle their JavaScript.
 *
 *   import { init, open, on } from "@tala/widget";
 *   init({ apiKey: "tala_pk_…", host: "https://tala.example.com" });
 *
 * The package is the facade only (~1 KB): it loads the widget's core from `${host}/widget-core.js`
 * on idle or first interaction, so the widget always matches the server it talks to. Calls made
 * before then are queued and replayed in order. No function here throws.
 */
import { createFacade, type TalaApi } from "./facade";
import { loadCoreScript } from "./load-script";
import { whenIdleOrInteraction } from "./schedule";

export type { TalaApi } from "./facade";
export type { TalaErrorEvent, TalaEvent, TalaEventMap, TalaFeedbackEvent, TalaListener, TalaMessageEvent, TalaOptions, TalaPosition, TalaTokenRefresh } from "./types";

const noop = () => {};
const inBrowser = typeof window !== "undefined" && typeof document !== "undefined";

/** The page's widget. On a server (SSR) every call does nothing. */
export const tala: TalaApi = inBrowser
  ? createFacade(loadCoreScript, whenIdleOrInteraction)
  : { init: noop, open: noop, close: noop, toggle: noop, destroy: noop, setLocale: noop, identify: noop, logout: noop, on: noop, off: noop };

/** Starts the widget: `apiKey` and `host` are required. Calling it again replaces the widget. */
export const init: TalaApi["init"] = (options) => tala.init(options);
/** Opens the chat panel (loads the core now if needed). */
export const open: TalaApi["open"] = () => tala.open();
export const close: TalaApi["close"] = () => tala.close();
export const toggle: TalaApi["toggle"] = () => tala.toggle();
/** Removes the widget from the page. */
export const destroy: TalaApi["destroy"] = () => tala.destroy();
/** `en`, `fr` or `ar`; other languages fall back to the page's, then English. */
export const setLocale: TalaApi["setLocale"] = (locale) => tala.setLocale(locale);
/**
 * Signs the visitor in with the JWT your server signed with the assistant's identity secret;
 * `refresh` (optional) gives a new one when the server refuses it (expired).
 */
export const identify: TalaApi["identify"] = (token, refresh) => tala.identify(token, refresh);
/** Signs the visitor out: a new anonymous conversation starts. */
export const logout: TalaApi["logout"] = () => tala.logout();
/** Listens to `open`, `close`, `message` (every saved message) and `error` (text safe to show). */
export const on: TalaApi["on"] = (event, listener) => tala.on(event, listener);
export const off: TalaApi["off"] = (event, listener) => tala.off(event, listener);
