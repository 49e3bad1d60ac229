import type { AgentAuthor, ConversationHandoff } from "../../../contract/schemas/handoff";
import type { WidgetConfigResponse, WidgetMessage, WidgetServerFrame, WidgetSource } from "../../../contract/schemas/widget";
import type { WidgetLocale, WidgetStrings } from "../../../contract/widget-strings";
import type { CoreEmit, TalaOptions, TalaTokenRefresh } from "../types";
import { call, configPath, feedbackPath, reasonOf, request, sessionsPath, type Failure, type Result } from "./api";
import { chunk, loadChunk, stringsOf, type ChunkName } from "./chunks";
import * as C from "./contract";
import { isConfig, isSession, toFrame } from "./frames";
import { pageLocales, pickLocale } from "./locale";
import { forgetSession, storedSession, storeSession, subOf } from "./storage";
import { createTransport, type Transport } from "./transport";

export type MessageStatus = "pending" | "failed" | "streaming" | "complete" | "stopped" | "error";
export type Rating = "up" | "down";
export interface UiMessage {
  /** Stable render key: the clientMessageId of the visitor's messages, else the server id. */
  key: string;
  id?: string;
  /** `agent`: a person of the site's team (`author`); `note`: the handoff chunk's line (a person joined, left…). */
  role: "user" | "assistant" | "agent" | "note";
  text: string;
  files: string[];
  status: MessageStatus;
  sources?: WidgetSource[];
  /** The visitor's rating of an answer, as shown (set at once on a click, put back if refused). */
  rating?: Rating;
  author?: AgentAuthor;
  /** The assistant offers a person here: "Talk to a person" under it (when the owner offers it). */
  offersHandoff?: boolean;
  /** The assistant offers the owner's lead form here (the lead chunk shows it), and why (the lead's trigger). */
  offersLeadForm?: boolean;
  leadTrigger?: "asked" | "unanswered";
}
/** A line above the input: an error, a limit, a refusal. `blocking` disables the input. */
export interface Notice {
  text: string;
  blocking?: boolean;
  retry?: boolean;
  /** Offer a new conversation. */
  fresh?: boolean;
  /** What Retry does instead of sending the last message again (a part that did not load). */
  redo?: () => void;
}
/** One of a verified visitor's earlier conversations (GET /api/widget/conversations). */
export interface Conversation {
  sessionId: string;
  title: string;
  lastMessageAt: number;
}
export interface State {
  config: WidgetConfigResponse["assistant"] | null;
  /** The server refused the widget here (inactive, origin not allowed, bad key): nothing is shown. */
  hidden: boolean;
  open: boolean;
  dark: boolean;
  locale: WidgetLocale;
  messages: UiMessage[];
  /** A reply is on its way (show Stop, the typing indicator until text arrives). */
  busy: boolean;
  remaining: number | null;
  notice: Notice | null;
  attachments: { name: string; text: string }[];
  /** What the visitor is typing. */
  draft: string;
  /** The visitor is signed in by the site (a user token): the Conversations view is offered. */
  verified: boolean;
  /** The verified visitor's conversations while that view shows, else null (the chat shows). */
  list: Conversation[] | null;
  /** A quiet line above the input (the browser check taking more than a second). */
  status: string | null;
  /** The source chip whose passage is shown (`${message key}-${index}`). */
  shown: string | null;
  /** The conversation's handoff (absent: nobody was ever asked for); the handoff chunk keeps it. */
  handoff?: ConversationHandoff;
  /**
   * A person was asked for or has the conversation (set by the handoff chunk, from `handoff`): the
   * visitor's messages get no answer from the assistant, and "Talk to a person" is not offered.
   */
  handing?: boolean;
  /** The open conversation already sent a lead (from its session; set by the lead chunk after one). */
  leadSent?: boolean;
  /** A lead was sent: the key of the message the lead chunk shows the thank-you line after (null: first); from the session when resumed. */
  leadAfter?: string | null;
}

const BLOCKING = ["session-limit", "daily-limit", "unavailable", "origin-not-allowed", "session-not-found", "identity-invalid", "budget-reached"];
const FRESH = ["session-limit", "session-not-found"];
const FINAL = ["complete", "stopped", "error"];

/** The saved message as shown: its fields (id, role, status, rating, author, offersHandoff…), its text, files' names and sources. */
const toUi = (m: WidgetMessage, sources = m.sources) =>
  ({
    // System messages never reach here (filtered where read): the role is one of UiMessage's.
    ...m,
    key: m.id,
    text: m.content.data,
    files: m.files.map((f) => f.name),
    sources,
  }) as UiMessage;

const newId = () => Date.now().toString(36) + Math.random().toString(36).slice(2);

/**
 * The visitor's chat, without any DOM: config, session (resumed from localStorage), sending over
 * the transport, the server's events applied idempotently, limits and refusals. The view renders
 * `state` and calls the methods; the methods never throw.
 */
export class Controller {
  state: State;
  #listeners = new Set<() => void>();
  /** The server, the assistant's key (the handoff chunk's calls read them too). */
  srvHost: string;
  srvKey: string;
  /** The config's limits (a remaining count names the one it counts down). */
  #limits?: { maxMessagesPerSession: number; dailyLimit: number };
  /** The open session (the handoff chunk and the playground subclass read or set it). */
  currentSession: string | null = null;
  #opening: Promise<boolean> | null = null;
  /** Bumped by newConversation(): a session that lands after it belongs to the old conversation. */
  epoch = 0;
  transport: Transport | null = null;
  #lastSent: { text: string; files: { name: string; text: string }[] } | null = null;
  #localeChoice: string | undefined;
  /** The locale asked for last: a chunk landing after a newer choice is not applied. */
  #wanted: WidgetLocale;
  #nonce?: string;
  /** The verified visitor's token (never stored by the widget: the host gives it on every page). */
  visTok: string | null;
  /** The host's way to a new token (`identify(token, refresh)`, `refreshToken`), asked once per refusal (the blocked chunk). */
  rfr?: TalaTokenRefresh;
  /** It was asked since the last call the server accepted: a refusal now is final. */
  rnw = false;
  #destroyed = false;
  /** Answers whose rating is being sent: one request per answer at a time. */
  #rating = new Set<string>();
  /** The lead chunk was asked for (collect). */
  #lead = false;

  #emit: CoreEmit;

  constructor(options: TalaOptions, emit: CoreEmit) {
    this.#emit = emit;
    this.srvHost = options.host;
    this.srvKey = options.apiKey;
    this.#localeChoice = options.locale;
    this.#wanted = pickLocale(options.locale, ...pageLocales());
    this.#nonce = options.nonce;
    this.visTok = options.userToken || null;
    this.rfr = options.refreshToken;
    this.state = {
      config: null,
      hidden: false,
      open: false,
      dark: false,
      // English until the chosen language's strings have loaded (start() waits for them).
      locale: "en",
      messages: [],
      busy: false,
      remaining: null,
      notice: null,
      attachments: [],
      draft: "",
      verified: !!this.visTok,
      list: null,
      status: null,
      shown: null,
    };
  }

  get t(): WidgetStrings {
    return stringsOf(this.state.locale);
  }

  /** A chunk (src/core/chunks.ts), or null after telling the visitor it did not load, with a retry. */
  async part<N extends ChunkName>(name: N, redo?: () => void) {
    const loaded = await loadChunk(this.srvHost, name, this.#nonce);
    if (!loaded && !this.#destroyed) {
      this.set({ notice: { text: this.t.partFailed, redo } });
      this.#emit("error", { error: this.t.partFailed });
    }
    return loaded;
  }

  /** Shows `locale` once its strings are here (English needs none). */
  async #useLocale(locale: WidgetLocale) {
    this.#wanted = locale;
    if (locale === "en" || (await this.part(locale, () => void this.#useLocale(locale)))) {
      if (this.#wanted === locale) this.set({ locale });
    }
  }

  subscribe(listener: () => void) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  set(patch: Partial<State>) {
    if (this.#destroyed) return;
    this.state = { ...this.state, ...patch };
    for (const l of this.#listeners) l();
  }

  /**
   * The lead chunk, when the view finds the owner's form may be due; it follows the widget from
   * then on. Asked for once: a chunk that did not load is asked again by the notice's Retry only.
   */
  async collect() {
    if (this.#lead) return;
    this.#lead = true;
    (await this.leadPart(() => ((this.#lead = false), void this.collect())))?.on(this);
  }

  /** The lead form's code, from the chunk that carries it with the visitor's language's texts (lead-en, lead-fr, lead-ar). */
  async leadPart(redo?: () => void) {
    return (await this.part(`lead-${this.state.locale}`, redo)) && chunk("lead");
  }

  /** Opens the conversation if none is (the lead chunk's form needs one to send to). */
  ensure() {
    return this.#ensureSession(false);
  }

  /** The handoff chunk, loaded when first needed, given `f` (a handoff, typing or person's message frame). */
  async #hand(f?: WidgetServerFrame) {
    const k = await this.part("handoff", () => void this.#hand(f));
    k?.on(this, f);
    return k;
  }

  /** "Talk to a person": starts a conversation if none is open, then the handoff chunk asks. */
  async handoff() {
    if (await this.#ensureSession(false)) await (await this.#hand())?.ask(this);
  }

  get #assistantId() {
    return this.state.config?.id ?? "";
  }

  async start() {
    // The language's strings load beside the config: the panel never shows in the wrong one.
    const [res] = await Promise.all([call(this.srvHost, this.srvKey, configPath), this.#useLocale(this.#wanted)]);
    if (!res.ok && res.contact) {
      // Switched off, with the owner's contact line: a panel that says so and how to reach them.
      this.set({ config: { headerText: this.t.assistant, contactLine: res.contact } as State["config"] });
      return this.fail(res.error, res.reason);
    }
    if (!res.ok || !isConfig(res.data)) {
      this.set({ hidden: true });
      // The one line a site owner gets when the key was revoked or the assistant is off (401/403).
      if (!res.ok && res.error && (res.status === 401 || res.status === 403)) console.warn("Tala widget: " + res.error);
      this.#emit("error", { error: (!res.ok && res.error) || this.t.loadFailed, reason: res.ok ? undefined : res.reason });
      return;
    }
    this.#limits = res.data.limits;
    // The owner's fixed language comes after the host's choice, before the page's and browser's.
    const locale = pickLocale(this.#localeChoice, res.data.assistant.language, ...pageLocales());
    if (locale !== this.#wanted) await this.#useLocale(locale);
    this.set({ config: res.data.assistant });
    if (this.state.open) void this.#ensureSession(true);
  }

  setOpen(open: boolean) {
    if (open === this.state.open) return;
    this.set({ open });
    this.#emit(open ? "open" : "close", undefined);
    // Shows the conversation this browser had with the assistant, if any.
    if (open && this.state.config) void this.#ensureSession(true);
  }

  setLocale(locale: string) {
    this.#localeChoice = locale;
    void this.#useLocale(pickLocale(locale, this.state.config?.language, ...pageLocales()));
  }

  /** Where this browser keeps the visitor's session id: per assistant, and per user when verified. */
  get #storeKey() {
    return this.visTok ? `${this.#assistantId}:user:${subOf(this.visTok)}` : this.#assistantId;
  }

  /**
   * A new user token. The same user (a refreshed token) keeps their conversation; another user
   * gets theirs (or a new one), never the previous user's.
   */
  identify(token: string, refresh?: TalaTokenRefresh) {
    if (refresh) this.rfr = refresh;
    if (!token || token === this.visTok) return;
    this.rnw = false;
    const same = !!this.visTok && subOf(this.visTok) === subOf(token);
    this.visTok = token;
    this.set({ verified: true });
    // A refreshed token of the same user: the open conversation goes on (the transport reads the
    // token on each connection and request). After a refusal, it starts over with the new one.
    if (!same || this.state.notice?.blocking) this.#switchVisitor();
  }

  /** Drops the token and that user's stored conversation; the next one is a new anonymous one. */
  logout() {
    if (!this.visTok) return;
    forgetSession(this.#storeKey);
    this.visTok = null;
    // Nor does the next visitor resume an anonymous conversation from before the sign-in.
    forgetSession(this.#storeKey);
    this.set({ verified: false });
    this.#switchVisitor();
  }

  #switchVisitor() {
    this.#reset();
    if (this.state.open && this.state.config) void this.#ensureSession(true);
  }

  /** The session to send in: the open one, the one being opened, the stored one, or a new one. */
  #ensureSession(resumeOnly: boolean): Promise<boolean> {
    if (this.currentSession) return Promise.resolve(true);
    if (this.#opening) return this.#opening;
    const stored = storedSession(this.#storeKey) ?? undefined;
    if (resumeOnly && !stored) return Promise.resolve(false);
    return (this.#opening = this.#openSession(stored).finally(() => (this.#opening = null)));
  }

  /**
   * POST /api/widget/sessions: resumes `visitorSessionId` (or starts a new one), with the user
   * token when verified. A 428 (or a 403 refusing a proof) carrying a challenge is solved and
   * the same body sent again with `proof`, at most twice; then the server's text shows.
   */
  async #openSession(visitorSessionId?: string): Promise<boolean> {
    const epoch = this.epoch;
    const body = () => ({
      visitorSessionId,
      referrer: location.href.slice(0, C.maxReferrerChars),
      locale: (this.#localeChoice || navigator.language || "").slice(0, C.maxLocaleChars),
      userToken: this.visTok || undefined,
    });
    let res = await call(this.srvHost, this.srvKey, sessionsPath, body());
    if (await this.renewed(res)) res = await call(this.srvHost, this.srvKey, sessionsPath, body());
    // A proof-of-work asked for: the lazily loaded solver answers it (null when it did not load: the visitor was told, with a retry).
    if (!res.ok && res.challenge) {
      const pow = await this.part("pow", () => this.retry());
      if (!pow) return false;
      res = await pow.answer(this, res, (proof) => call(this.srvHost, this.srvKey, sessionsPath, { ...body(), proof }), epoch);
    }
    if (this.#destroyed || epoch !== this.epoch) return false;
    if (!res.ok || !isSession(res.data)) {
      this.fail((!res.ok && res.error) || this.t.loadFailed, res.ok ? undefined : this.refusal(res), false);
      return false;
    }
    const { sessionId, messages, remaining, handoff, leadSent, leadAfter } = res.data;
    this.rnw = false;
    this.currentSession = sessionId;
    storeSession(this.#storeKey, sessionId);
    // Messages the visitor typed while the session was opening stay after the saved ones.
    const typed = this.state.messages.filter((m) => m.status === "pending");
    this.set({ messages: [...messages.filter((m) => m.role !== "system").map((m) => toUi(m)), ...typed], handoff, leadSent, leadAfter });
    // A person was asked for (and may have written: a reply written after the visitor left shows now).
    if (handoff) void this.#hand();
    this.#setRemaining(Math.min(remaining.session, remaining.daily), remaining.session === 0 ? "session-limit" : "daily-limit");
    this.transport = createTransport(this.srvHost, this.srvKey, sessionId, {
      onFrame: (f) => this.apply(f),
      onLost: (id, error, status, reason) => this.#lost(id, error, status, reason),
      token: () => this.visTok,
      chunk: (name) => loadChunk(this.srvHost, name, this.#nonce),
    });
    return true;
  }

  /**
   * After a call refused the visitor's token: the host's refresh asked for a new one (the blocked
   * chunk's `renew`), once until the server accepts a call again. True when it gave one: the caller
   * makes its call again; else the refusal stands ("Please refresh the page").
   */
  async renewed(res: Result) {
    return !res.ok && this.refusal(res) === "identity-invalid" && !!this.rfr && !this.rnw && !!(await (await this.part("blocked"))?.renew(this));
  }

  /** A refusal's reason; a 401 with a token is the token's (the widget never goes anonymous then). */
  refusal(f: Pick<Failure, "status" | "error" | "reason">) {
    return f.status === 401 && this.visTok ? "identity-invalid" : f.reason;
  }

  #setRemaining(remaining: number, reason: "session-limit" | "daily-limit") {
    this.set({ remaining });
    // The limit's sentence comes from the blocked chunk, as a refusal's (a new conversation offered past the session's).
    if (remaining === 0 && !this.state.notice?.blocking) this.fail(null, reason, false);
  }

  fail(error: string | null, reason?: string, retry = true) {
    const blocking = !!reason && BLOCKING.includes(reason);
    const epoch = this.epoch;
    const show = (text: string | null | false | undefined) => {
      text ||= this.t.sendFailed;
      if (epoch !== this.epoch) return;
      this.set({ notice: { text, blocking, fresh: !!reason && FRESH.includes(reason), retry: retry && !blocking && reason !== "reply-in-progress" } });
      this.#emit("error", { error: text, reason });
    };
    if (!blocking) return show(error);
    // The chat cannot go on: why, in the visitor's language (the blocked chunk: few visitors meet
    // it); a refused token never in the server's technical words, even if the chunk did not load.
    void this.part("blocked").then((k) => show(k ? k.say(this, error, reason) : reason !== "identity-invalid" && error));
  }

  #update(match: (m: UiMessage) => boolean, next: (m: UiMessage | undefined) => UiMessage | null) {
    const list = this.state.messages;
    const i = list.findIndex(match);
    const value = next(list[i]);
    const messages = i < 0 ? (value ? [...list, value] : list) : value ? list.map((m, j) => (j === i ? value : m)) : list.filter((_, j) => j !== i);
    this.set({ messages });
  }

  /** An event read elsewhere (the handoff chunk's event stream and session reads): checked as the socket's, then applied. */
  frame(event: unknown, data: unknown) {
    const f = toFrame(event, data);
    if (f) this.apply(f);
  }

  /** Applies one server event. Idempotent: the same event twice changes nothing. */
  apply(f: WidgetServerFrame) {
    const streaming = (id: string, text = ""): UiMessage => ({ key: id, id, role: "assistant", text, files: [], status: "streaming" });
    switch (f.event) {
      case "thinking":
        this.set({ busy: true });
        this.#update((m) => m.id === f.data.messageId, (m) => m ?? streaming(f.data.messageId));
        return;
      case "message-delta": {
        const { messageId, delta, offset } = f.data;
        this.#update(
          (m) => m.id === messageId,
          (m) => {
            if (m && FINAL.includes(m.status)) return m;
            const text = m?.text ?? "";
            // A gap (a missed delta) waits for the final message.
            return offset <= text.length ? { ...(m ?? streaming(messageId)), text: text.slice(0, offset) + delta } : (m ?? streaming(messageId));
          },
        );
        this.set({ busy: true });
        return;
      }
      case "new-message": {
        const saved = toUi(f.data.message, f.data.sources ?? f.data.message.sources);
        if (f.data.message.role === "system") return;
        const cid = f.data.clientMessageId;
        // The server took a message of the visitor: their token is good (a later refusal may be renewed again).
        if (cid) this.rnw = false;
        const known = this.state.messages.find((m) => m.id === saved.id || (!!cid && m.key === cid));
        const wasFinal = !!known && known.id === saved.id && FINAL.includes(known.status);
        this.#update((m) => m === known, (m) => ({ ...saved, key: m?.key ?? saved.key }));
        // While a person is asked for or has it, no answer follows the visitor's message.
        if ((saved.role === "assistant" || this.state.handing) && saved.status !== "streaming") this.set({ busy: false });
        if (!wasFinal && FINAL.includes(saved.status)) {
          this.#emit("message", { role: saved.role as "user", text: saved.text, sources: saved.sources });
        }
        return;
      }
      case "message-error": {
        const { error, reason, clientMessageId, message } = f.data;
        this.#settle(clientMessageId, "error", message);
        this.fail(error, reason);
        return;
      }
      case "remaining-messages":
        this.#setRemaining(
          f.data.remaining,
          f.data.limit === this.#limits?.dailyLimit && f.data.limit !== this.#limits.maxMessagesPerSession ? "daily-limit" : "session-limit",
        );
        return;
      default:
        // handoff, typing: the handoff chunk's.
        void this.#hand(f);
    }
  }

  /** A reply ended without an answer: the visitor's message, if unsaved, is marked failed. */
  #settle(clientMessageId?: string, endAs: MessageStatus = "error", failed?: WidgetMessage) {
    const messages = this.state.messages
      .map((m): UiMessage => (m.key === clientMessageId && m.status === "pending" ? { ...m, status: "failed" } : m))
      .filter((m) => m.status !== "streaming" || m.text)
      .map((m): UiMessage => (m.status === "streaming" ? { ...m, status: endAs } : m));
    this.set({ messages, busy: false });
    if (failed) this.#update((m) => m.id === failed.id, () => ({ ...toUi(failed), status: "error" }));
  }

  #lost(clientMessageId: string, error: string | null, status: number, reason?: string) {
    // No answer awaited any more: it was stopped, or a person is asked for (no answer follows the saved message).
    if (!this.state.busy) return;
    this.#settle(clientMessageId);
    const failure: Failure = { ok: false, status, error, reason: reason ?? reasonOf(status) };
    const why = status ? this.refusal(failure) : undefined;
    // A refused token renewed by the host: the message goes again with the new one.
    if (why === "identity-invalid") void this.renewed(failure).then((renewed) => (renewed ? this.retry() : this.fail(error, why)));
    else this.fail(error, why);
  }

  /** Sends the draft (or `text`, on retry) with the attachments. */
  async send(text = this.state.draft) {
    text = text.trim();
    const files = this.state.attachments;
    const s = this.state;
    if ((!text && !files.length) || s.busy || s.notice?.blocking || !s.config) return;
    if (text.length > C.maxMessageChars) return this.set({ notice: { text: this.t.messageTooLong(C.maxMessageChars) } });
    const clientMessageId = newId();
    this.#lastSent = { text, files };
    this.set({
      messages: [...s.messages, { key: clientMessageId, role: "user", text, files: files.map((f) => f.name), status: "pending" }],
      attachments: [],
      draft: "",
      notice: null,
      busy: true,
    });
    if (!(await this.#ensureSession(false))) return this.#settle(clientMessageId);
    this.transport?.send({ content: text, files, clientMessageId });
  }

  /** Sends the visitor's last message again (after a failed or refused reply). */
  retry() {
    const list = this.state.messages;
    let i = list.length - 1;
    while (i >= 0 && list[i]!.role !== "user") i--;
    if (i < 0 || !this.#lastSent) return;
    const last = this.#lastSent;
    this.set({ messages: list.slice(0, i), notice: null, attachments: last.files });
    void this.send(last.text);
  }

  stop() {
    if (!this.state.busy) return;
    const settle = () => this.state.busy && this.#settle(undefined, "stopped");
    if (this.transport?.stop()) settle();
    // Over the socket the server answers with the stopped message; if it does not, stop here.
    else setTimeout(settle, 4000);
  }

  /**
   * The visitor rates an answer (one with a server id): the button shows it at once, and the
   * rating shown is sent until the server has it. At most one request per answer is in flight;
   * a click meanwhile only changes what is sent next. A refused or failed request (after the
   * usual retries of 5xx) puts back the last rating the server accepted, without a notice: a
   * rating is optional and the visitor may click again.
   */
  async rate(id: string, rating: Rating) {
    const sessionId = this.currentSession;
    const shown = () => this.state.messages.find((m) => m.id === id);
    let before = shown()?.rating;
    if (!sessionId || !shown() || before === rating) return;
    this.#setRating(id, rating);
    if (this.#rating.has(id)) return;
    this.#rating.add(id);
    for (let m; (m = shown())?.rating && m.rating !== before; ) {
      const sent = m.rating;
      if (!(await this.api(feedbackPath(sessionId, id), { rating: sent })).ok) {
        this.#setRating(id, before);
        break;
      }
      before = sent;
      this.#emit("feedback", { rating: sent, text: m.text });
    }
    this.#rating.delete(id);
  }

  #setRating(id: string, rating?: Rating) {
    this.set({ messages: this.state.messages.map((m) => (m.id === id ? { ...m, rating } : m)) });
  }

  /** Closes the conversation shown (nothing is forgotten: see newConversation). */
  #reset() {
    this.transport?.close();
    this.transport = null;
    this.currentSession = null;
    this.#opening = null;
    this.epoch++;
    this.set({ messages: [], notice: null, remaining: null, busy: false, attachments: [], draft: "", list: null, status: null });
  }

  newConversation() {
    forgetSession(this.#storeKey);
    this.#reset();
  }

  /** The verified visitor's Conversations view (the visitor chunk fetches it), or back to the chat when it shows. */
  async showConversations() {
    if (this.state.list) return this.set({ list: null });
    if (this.visTok) await (await this.part("visitor", () => void this.showConversations()))?.show(this);
  }

  /** A call with the visitor's token (a rating, the visitor chunk's Conversations). */
  api(path: string, body?: unknown) {
    return call(this.srvHost, this.srvKey, path, body, this.visTok);
  }

  /** One POST with the key and the visitor's token, never retried (the lead chunk's: a lead is not idempotent). */
  once(path: string, body: unknown) {
    return request(this.srvHost, this.srvKey, path, body, AbortSignal.timeout(C.timeoutMs), this.visTok);
  }

  /** The conversation this browser keeps for the visitor (per assistant, and per user when signed), if any. */
  kept() {
    return storedSession(this.#storeKey);
  }

  /** Reopens one of the verified visitor's conversations (POST /sessions with its id and the token). */
  async reopen(sessionId: string) {
    this.#reset();
    this.#opening = this.#openSession(sessionId).finally(() => (this.#opening = null));
    await this.#opening;
  }

  /** Shows or hides a source's passage (one at a time). */
  show(id: string) {
    this.set({ shown: this.state.shown === id ? null : id });
  }

  /** Reads the chosen files (a chunk: most sites do not allow attachments). */
  async addFiles(files: File[]) {
    await (await this.part("files"))?.readFiles(this, files);
  }

  destroy() {
    this.transport?.close();
    // The handoff chunk's tick stops when it finds no transport.
    this.transport = null;
    this.#listeners.clear();
    this.#destroyed = true;
  }
}
