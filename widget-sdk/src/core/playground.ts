/**
 * The real widget inside the dashboard: the Playground tab and the Settings tab's live
 * preview mount the same Preact view and controller as widget-core.js, with
 *  - a config given by the dashboard (the saved settings, or the form's unsaved values) instead of
 *    GET /api/widget/config, replaceable at any time (`update`);
 *  - no visitor session: a local id, so nothing is started, counted or saved on the server;
 *  - the playground transport (playground-transport.ts): each message goes to
 *    POST /api/public-assistants/{id}/playground with the earlier turns and the owner's token.
 *
 * The dashboard imports this module directly (its lazily loaded assistant page bundles Preact):
 * widget-core.js never includes it. The widget is rendered into `container`, whose box the
 * dashboard makes the containing block of the widget's fixed launcher and panel (a transform),
 * so they sit in the chosen corner of a framed "your website" area, not over the dashboard.
 */
import { createRef, h, render } from "preact";
import type { WidgetConfigResponse } from "../../../contract/schemas/widget";
import type { CoreEmit } from "../types";
import { widgetMessages } from "../../../contract/messages";
import { reasonOf } from "./api";
import { Controller, type Rating } from "./controller";
import { createPlaygroundTransport, playgroundHistory, type PlaygroundTransportOptions } from "./playground-transport";
import { applyStyles } from "./shadow-styles";
import { watchTheme } from "./theme";
import { App, type AppProps } from "./view";
// The parts the public widget loads as chunks (widget-chunks/*.js) are bundled here instead: the
// dashboard's page is one bundle, and the chunks' hashed names exist only in the public build.
import "../chunks/files";
import "../chunks/fr";
import "../chunks/ar";
import "../chunks/blocked";

/** A limit the playground's endpoint refused by its text (its errors carry no reason): final, as the widget's. */
const limitOf = (error: string | null) =>
  error === widgetMessages.sessionLimitReached ? "session-limit" : error === widgetMessages.dailyLimitReached ? "daily-limit" : undefined;

export type PlaygroundConfig = WidgetConfigResponse["assistant"];

export interface PlaygroundWidgetOptions extends Pick<PlaygroundTransportOptions, "url" | "authorization" | "onRemaining" | "fetch"> {
  config: PlaygroundConfig;
  /** The owner's language (the widget's texts and the answer's language when unsure). Default: the browser's. */
  locale?: string;
  /** Focus the message box when the panel opens (the Playground tab); false for a preview beside a form. */
  focus?: boolean;
  /** The widget's events (message, error…), as the facade's `on` gets them. */
  emit?: CoreEmit;
}

export interface PlaygroundWidget {
  /** Shows other settings at once (the conversation stays). */
  update(config: PlaygroundConfig): void;
  /** Drops the conversation, as the widget's "+" does. */
  newConversation(): void;
  destroy(): void;
}

/** The local id that stands for a visitor session: nothing is opened on the server. */
const LOCAL_SESSION = "playground";

/**
 * The config without "Talk to a person" nor the lead form: the Playground has no visitor session
 * for a person to take over or a lead to be sent to, so neither shows there (the action under an
 * answer offering it included).
 */
const withoutHandoff = (config: PlaygroundConfig): PlaygroundConfig => ({ ...config, handoff: undefined, leadForm: undefined });

/** The widget's controller with the playground transport and no server session. */
export class PlaygroundController extends Controller {
  #options: PlaygroundWidgetOptions;

  constructor(options: PlaygroundWidgetOptions) {
    super({ apiKey: "", host: "", locale: options.locale }, options.emit ?? (() => {}));
    this.#options = options;
    this.set({ open: true });
    this.applyConfig(options.config);
    this.#connect();
  }

  /**
   * Shows `config` in the language the widget on a site would use (start(), which reads the config
   * from the server, never runs here): the `locale` option first, as a snippet's `data-locale` wins
   * on a site, then the owner's fixed language, then the page's or the browser's. The dashboard
   * passes no `locale`, so its preview follows the owner's choice.
   */
  applyConfig(config: PlaygroundConfig) {
    this.set({ config: withoutHandoff(config) });
    this.setLocale(this.#options.locale ?? "");
  }

  #connect() {
    const o = this.#options;
    this.currentSession = LOCAL_SESSION;
    this.transport = createPlaygroundTransport(
      {
        url: o.url,
        authorization: o.authorization,
        onRemaining: o.onRemaining,
        fetch: o.fetch,
        locale: o.locale || navigator.language || "",
        history: () => playgroundHistory(this.state.messages),
      },
      {
        onFrame: (f) => this.apply(f),
        // Shown as the widget shows any reply that did not come (its #lost): the message marked
        // failed, the server's text (or the widget's own), Retry unless the refusal is final.
        onLost: (clientMessageId, error, status) =>
          this.apply({
            event: "message-error",
            data: { error: error ?? "", reason: (status ? limitOf(error) ?? reasonOf(status) : undefined) as never, clientMessageId },
          }),
      },
    );
  }

  /** The config is the dashboard's: nothing to fetch. */
  override start() {
    return Promise.resolve();
  }

  override newConversation() {
    super.newConversation();
    this.#connect();
  }

  /** Ratings are not saved anywhere from the Playground: the buttons show the choice only. */
  override rate(id: string, rating: Rating) {
    this.set({ messages: this.state.messages.map((m) => (m.id === id ? { ...m, rating: m.rating === rating ? undefined : rating } : m)) });
    return Promise.resolve();
  }
}

/** Mounts the widget, open, into `container`. Its methods never throw. */
export function mountPlaygroundWidget(container: HTMLElement, options: PlaygroundWidgetOptions): PlaygroundWidget {
  const host = document.createElement("tala-widget");
  const root = host.attachShadow({ mode: "open" });
  applyStyles(root);
  const c = new PlaygroundController(options);
  const stopTheme = watchTheme((dark) => c.state.dark !== dark && c.set({ dark }));
  const app = createRef<App>();
  render(h(App, { c, root, host, ref: app } as AppProps), root);
  // Open from the start: the first update must not move focus into the widget (a preview beside
  // a form keeps the owner's focus where it is); the Playground asks for it.
  if (app.current) app.current.wasOpen = true;
  container.appendChild(host);
  if (options.focus) queueMicrotask(() => app.current?.input.current?.focus({ preventScroll: true }));
  const safe = (f: () => void) => {
    try {
      f();
    } catch {
      // never into the dashboard
    }
  };
  return {
    update: (config) => safe(() => c.applyConfig(config)),
    newConversation: () => safe(() => c.newConversation()),
    destroy: () =>
      safe(() => {
        stopTheme();
        c.destroy();
        render(null, root);
        host.remove();
      }),
  };
}
