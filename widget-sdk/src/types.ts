/**
 * The public types of `@tala/widget`, and the small interface between the facade (widget.js, the
 * npm package) and the core (widget-core.js). Self-contained on purpose: the package's .d.ts files
 * must not point outside the package, so these unions repeat the contract's by hand: change both
 * together.
 */

/** Where the launcher sits (the assistant's setting unless overridden). */
export type TalaPosition = "bottom-right" | "bottom-left" | "top-right" | "top-left";

export interface TalaOptions {
  /** The public assistant's API key (`tala_pk_…`), as in the integration code. */
  apiKey: string;
  /** The Tala server's origin, e.g. `https://tala.example.com`: the API and widget-core.js live there. */
  host: string;
  /** `en`, `fr` or `ar` (any BCP 47 tag; its language is used). Default: the page's `<html lang>`, then the browser's. */
  locale?: string;
  /** A CSP nonce for the core `<script>` and the widget's `<style>` (when constructable stylesheets are missing). */
  nonce?: string;
  /** Overrides the assistant's launcher position. */
  position?: TalaPosition;
  /** Opens the chat panel as soon as the widget is ready. */
  open?: boolean;
  /**
   * The signed-in user of your site, as a JWT (HS256) your server signed with the assistant's
   * identity secret (`sub`: your user id; `exp` at most 24 h ahead; optional `name`, `email`).
   * Their conversations follow them across browsers; a token the server refuses is shown as an
   * error, never downgraded to an anonymous chat. Change it with `identify()` / `logout()`.
   */
  userToken?: string;
  /**
   * Asked for a new user token when the server refuses the current one (expired, or signed with
   * a secret since replaced): once per refusal, before the visitor is told to refresh the page.
   * Return the new token, or nothing when there is none (`identify(token, refresh)` sets it too).
   */
  refreshToken?: TalaTokenRefresh;
}

/** Your page's way to a fresh user token (your server signs it); nothing or a throw: none. */
export type TalaTokenRefresh = () => string | null | undefined | Promise<string | null | undefined>;

export interface TalaMessageEvent {
  /** `agent`: a person of your team wrote it (they took the conversation over). */
  role: "user" | "assistant" | "agent";
  /** The message's text (markdown for answers). */
  text: string;
  /** Knowledge files and web pages an answer drew on, when the owner shows sources. */
  sources?: { name: string; url?: string }[];
}

export interface TalaErrorEvent {
  /** Text safe to show a visitor (the server's `error`, or the widget's own message). */
  error: string;
  /** The server's refusal reason when known (`session-limit`, `daily-limit`, `unavailable`…). */
  reason?: string;
}

/** The visitor rated an answer, and the server saved it. */
export interface TalaFeedbackEvent {
  rating: "up" | "down";
  /** The rated answer's text (markdown). */
  text: string;
}

export interface TalaEventMap {
  open: undefined;
  close: undefined;
  message: TalaMessageEvent;
  error: TalaErrorEvent;
  feedback: TalaFeedbackEvent;
}
export type TalaEvent = keyof TalaEventMap;
export type TalaListener<E extends TalaEvent> = (payload: TalaEventMap[E]) => void;

/** The calls the facade queues until the core has loaded, replayed in order. */
export type TalaCommand = "open" | "close" | "toggle" | "setLocale" | "identify" | "logout";

/** What the core gives back for one mounted widget. Its methods never throw. */
export interface CoreHandle {
  open(): void;
  close(): void;
  toggle(): void;
  setLocale(locale: string): void;
  /** A (new) signed user token: another user gets their own conversations, the same one keeps theirs; `refresh` replaces the refresher when given. */
  identify(token: string, refresh?: TalaTokenRefresh): void;
  /** Forgets the token and that user's conversation on this browser; an anonymous one starts. */
  logout(): void;
  destroy(): void;
}

export type CoreEmit = <E extends TalaEvent>(event: E, payload: TalaEventMap[E]) => void;

/** widget-core.js defines this function on `window[CORE_GLOBAL]`. */
export type CoreFactory = (options: TalaOptions, emit: CoreEmit) => CoreHandle;
export const CORE_GLOBAL = "__talaWidgetCore";
/** Chunks of widget-core.js loaded on demand register here (src/chunks/, src/core/chunks.ts). */
export const CHUNK_GLOBAL = "__talaWidgetChunks";
