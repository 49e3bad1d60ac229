/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
// Classic JSX: h("p", props, ...children) is shorter in the bundle than the automatic runtime's
// jsx("p", { ...props, children }) and needs no runtime wrapper (~90 bytes gzip).
import { Component, createRef, Fragment, h, type ButtonHTMLAttributes, type Ref } from "preact";
import type { WidgetStrings } from "../../../contract/widget-strings";
import type { TalaPosition } from "../types";
import { chunk, stringsOf } from "./chunks";
import { readableTextColor, safeColor } from "./color";
import * as C from "./contract";
import type { Controller, Rating, UiMessage } from "./controller";
import { readableExtensions } from "./files";
import { isRtl } from "./locale";
import { inline, link, renderMarkdown, safeHref } from "./markdown";

// One class component and plain functions: every byte counts in the 15 KB core (preact/hooks
// alone would cost ~0.8 KB gzip). The controller holds all state, the draft included.

/** A square icon button (class "i" unless `props` says otherwise), named by `label`; `d`: its 24×24 stroked path. */
const iconButton = (label: string, d: string, props: ButtonHTMLAttributes & { ref?: Ref<HTMLButtonElement> }) => (
  <button type="button" class="i" aria-label={label} {...props}>
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path d={d} />
    </svg>
  </button>
);
const CLOSE = "m6 6 12 12M18 6 6 18";

// Bottom right is the default's class ("br").
const POS: Record<string, string> = { "bottom-left": "bl", "top-right": "tr", "top-left": "tl" };
// Medium is the default's class ("m", which no rule needs).
const SIZE: Record<string, string> = { small: "s", large: "lg" };

/**
 * One message: the visitor's as plain text, answers and a person's messages as safe markdown (a
 * person's under their photo and name, from the handoff chunk), an answer with its sources and,
 * given `rate`, the rating buttons; given `ask`, "Talk to a person" under an answer that offers it.
 * A note of the handoff chunk (a person joined, left) is its own line. A source is a chip (its file name, or a web page's title): a
 * disclosure button that shows its passage below (`shown`, one at a time, toggled by `show`),
 * and under a web page's passage a link to it, named by its title, when its address is http or https.
 */
export function message(
  m: UiMessage,
  t: WidgetStrings,
  sources: boolean,
  dir: "rtl" | "ltr",
  rate?: (id: string, rating: Rating) => void,
  shown?: string | null,
  show?: (id: string) => void,
  ask?: () => void,
) {
  const user = m.role === "user";
  // A person's message (their photo and name over it) and the handoff's notes (which carry an author too): the
  // handoff chunk's, which the conversation's handoff loads before any shows.
  if (m.author) return chunk("handoff")?.message(h, m, dir, renderMarkdown);
  return (
    (user || m.text) && (
      // dir="auto": each message reads in its own direction (English answers in an Arabic panel);
      // the hidden speaker label has its own dir, so it does not decide the message's.
      <div key={m.key} dir="auto" class={`m1${user ? " u" : ""}${m.status === "failed" ? " f" : ""}`}>
        <span class="x" dir={dir}>
          {user ? t.you : t.assistant}:{" "}
        </span>
        {user ? m.text : <div class="md">{renderMarkdown(m.text)}</div>}
        {m.files.length > 0 && <span class="t">{m.files.join(", ")}</span>}
        {m.status === "stopped" && <span class="t">{t.stopped}</span>}
        {sources && !!m.sources?.length && (
          <div class="src">
            <span class="t">{t.sources}</span>
            {m.sources.map((s, i) => {
              // A curated answer is the site's own answer: named, not a file to open.
              if (s.kind === "qa") return <span class="t">{s.name}</span>;
              const href = s.url && safeHref(s.url, true);
              const id = `${m.key}-${i}`;
              return (
                <>
                  <button type="button" class="cp" aria-expanded={shown === id} aria-controls={id} onClick={() => show?.(id)}>
                    {s.name}
                  </button>
                  <p id={id} hidden={shown !== id}>
                    {s.excerpt}
                    {href && link(href, s.name)}
                  </p>
                </>
              );
            })}
          </div>
        )}
        {m.offersHandoff && ask && (
          <button type="button" class="bt" onClick={ask}>
            {t.talkToPerson}
          </button>
        )}
        {m.role === "assistant" && rate && m.id && m.status === "complete" && (
          <div class="rt">
            {(["up", "down"] as const).map((r) =>
              // One thumb, turned over for "down" (styles.ts).
              iconButton(r === "up" ? t.helpful : t.notHelpful, "M3 10h4v11H3zm4 0 4-7q3 0 3 3v3h6l-2 12H7", {
                "aria-pressed": m.rating === r,
                onClick: () => rate(m.id!, r),
              }),
            )}
          </div>
        )}
      </div>
    )
  );
}

export interface AppProps {
  c: Controller;
  root: ShadowRoot;
  host: HTMLElement;
  position?: TalaPosition;
}

/**
 * The launcher and, when open, the panel: a non-modal dialog that keeps Tab inside it, closes on
 * Escape and gives focus back to the launcher. Renders nothing until the config has loaded, nor
 * after an error of its own.
 */
export class App extends Component<AppProps> {
  launcher = createRef<HTMLButtonElement>();
  panel = createRef<HTMLDivElement>();
  log = createRef<HTMLDivElement>();
  input = createRef<HTMLTextAreaElement>();
  file = createRef<HTMLInputElement>();
  plus = createRef<HTMLButtonElement>();
  yes = createRef<HTMLButtonElement>();
  /** The question "+" asks before dropping a conversation is showing (closing the panel hides it). */
  asking = false;
  wasOpen = false;
  wasList = false;
  /** Follow new text only while the visitor is at the bottom of the conversation. */
  stick = true;
  failed = false;
  off = () => {};

  override componentDidMount() {
    this.off = this.props.c.subscribe(() => this.forceUpdate());
  }
  override componentWillUnmount() {
    this.off();
  }
  override componentDidCatch() {
    this.failed = true;
    this.forceUpdate();
  }
  override componentDidUpdate() {
    const c = this.props.c;
    const open = c.state.open;
    const active = document.activeElement;
    if (open && !this.wasOpen) this.input.current?.focus();
    // Closing returns focus to the launcher, unless the page moved it somewhere else meanwhile.
    if (!open && this.wasOpen && (active === this.props.host || active === document.body || !active)) this.launcher.current?.focus();
    this.wasOpen = open;
    // Into the Conversations view: focus its first button; back to the chat: the input.
    const list = !!c.state.list;
    if (list !== this.wasList) (list ? this.panel.current?.querySelector<HTMLElement>(".g button") : this.input.current)?.focus();
    this.wasList = list;
    const log = this.log.current;
    if (log && this.stick) log.scrollTop = log.scrollHeight;
  }

  onKeyDown = (e: KeyboardEvent) => {
    const panel = this.panel.current!;
    if (e.key === "Escape") {
      e.stopPropagation();
      if (this.asking) this.confirm();
      else this.props.c.setOpen(false);
    } else if (e.key === "Tab") {
      const items = [...panel.querySelectorAll<HTMLElement>(":is(button,textarea):enabled,a[href]")].filter((el) => el.getClientRects().length);
      const active = this.props.root.activeElement;
      const [first, last] = [items[0], items[items.length - 1]];
      if (e.shiftKey ? active === first || !panel.contains(active) : active === last) {
        e.preventDefault();
        (e.shiftKey ? last : first)?.focus();
      }
    }
  };

  submit = (e: Event) => {
    e.preventDefault();
    void this.props.c.send();
  };

  /** Shows or hides the confirmation bar, moving focus to its OK button or back to "+". */
  confirm = () => {
    this.asking = !this.asking;
    this.forceUpdate(() => (this.asking ? this.yes : this.plus).current?.focus());
  };

  fresh = () => {
    this.asking = false;
    this.props.c.newConversation();
    this.input.current?.focus();
  };

  render({ c, position }: AppProps) {
    const s = c.state;
    const cfg = s.config;
    if (this.failed || s.hidden || !cfg) return null;
    if (!s.open) this.asking = false;
    const t = stringsOf(s.locale);
    // The Conversations view is a chunk: shown once it has loaded (the controller sets `list` then).
    const listView = s.list && chunk("visitor");
    const color = safeColor(cfg.primaryColor, C.defaultColor);
    const n = s.notice;
    const blocked = !!n?.blocking;
    const last = s.messages[s.messages.length - 1];
    const dir = isRtl(s.locale) ? "rtl" : "ltr";
    const typing = s.busy && !(last?.role === "assistant" && last.text && last.status === "streaming");
    // "Talk to a person" (the header's and under an answer offering it) while nobody is asked for; focus goes to the message box.
    const ask = cfg.handoff?.visitorAction && !s.handing ? () => (void c.handoff(), this.input.current?.focus()) : undefined;
    // The owner's theme, else the page's and the visitor's (theme.ts).
    const dark = cfg.theme === "dark" || (cfg.theme !== "light" && s.dark);
    // The owner's avatar, served by Tala (a path on its host, or an http(s) address).
    const avatar = cfg.avatarUrl && safeHref(cfg.avatarUrl, true, c.srvHost);
    const lf = cfg.leadForm;
    // The owner's privacy line and policy link (https only, as the server validates it; a new tab, as answers' links), at the composer's foot.
    const pv = cfg.privacyNotice;
    const pu = /^https:/.test(cfg.privacyUrl!) && safeHref(cfg.privacyUrl!);
    return (
      <div
        class={`w ${POS[position ?? cfg.position] ?? "br"} ${SIZE[cfg.size] ?? "m"}${dark ? " dk" : ""}`}
        style={{ "--p": color, "--op": readableTextColor(color) }}
      >
        {iconButton(s.open ? t.closeChat : t.openChat, s.open ? CLOSE : "M21 12a9 9 0 0 1-13 8l-5 1 1-5a9 9 0 1 1 17-4z", { ref: this.launcher, class: "l", "aria-expanded": s.open, onClick: () => c.setOpen(!s.open) })}
        {s.open && (
          <div ref={this.panel} class="p" role="dialog" aria-modal="false" aria-label={cfg.headerText} dir={dir} lang={s.locale} onKeyDown={this.onKeyDown}>
            <div class="h">
              {avatar && (
                // A fixed box with the name's initial under the image: no layout shift, and the initial stays when it fails to load.
                <span class="av" data-i={cfg.headerText.slice(0, 1)}>
                  <img key={avatar} src={avatar} alt={cfg.name} width={32} height={32} onError={(e) => (e.currentTarget.hidden = true)} />
                </span>
              )}
              <b>
                {cfg.headerText}
                {cfg.availabilityLine && <small>{cfg.availabilityLine}</small>}
              </b>
              {s.verified &&
                iconButton(t.conversations, "M4 6h16M4 12h16M4 18h10", {
                  "aria-pressed": !!listView,
                  onClick: () => void c.showConversations(),
                })}
              {/* Not on the switched-off panel (its config has no id): a new conversation there would only be refused again. */}
              {cfg.id &&
                iconButton(t.newConversation, "M12 5v14M5 12h14", {
                  ref: this.plus,
                  // With nothing the visitor wrote, nothing to lose: no question.
                  onClick: () => (s.messages.some((m) => m.role === "user") ? this.confirm() : this.fresh()),
                })}
              {iconButton(t.closeChat, CLOSE, { onClick: () => c.setOpen(false) })}
            </div>
            {listView ? (
              listView.list(h, c, t, s.locale, this.fresh)
            ) : (
            <div
              ref={this.log}
              class="g"
              role="log"
              aria-live="polite"
              aria-busy={s.busy}
              onScroll={(e) => {
                const el = e.currentTarget;
                this.stick = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
              }}
            >
              {cfg.welcomeMessage && message({ key: "", role: "assistant", text: cfg.welcomeMessage, files: [], status: "complete" }, t, false, dir)}
              {/* Before the first message: the owner's questions, each sent as if typed (same path, same limits). */}
              {!s.messages.length && !blocked && !!cfg.starterQuestions?.length && (
                <div class="src sq" role="group" aria-label={t.suggested}>
                  {cfg.starterQuestions.map((q) => (
                    // The chip goes away once sent: focus moves to the message box, not to the page.
                    // dir="auto": each question reads in its own direction (an English one in an Arabic panel).
                    <button type="button" class="cp" dir="auto" onClick={() => (void c.send(q), this.input.current?.focus())}>
                      {q}
                    </button>
                  ))}
                </div>
              )}
              {s.messages.map((m) =>
                message(
                  m,
                  t,
                  cfg.showSources,
                  dir,
                  (id, r) => c.rate(id, r),
                  s.shown,
                  (id) => c.show(id),
                  ask,
                ),
              )}
              {typing && (
                <div class="m1 ty" role="status">
                  <span class="x">{t.thinking}</span>
                  <i />
                  <i />
                  <i />
                </div>
              )}
              {/* The owner's lead form, at the end of the conversation while it is due (the lead chunk's, which
                  decides once loaded). Its chunk loads when it may be due: before the first message, after the
                  visitor's N-th, under an answer offering it, and in a resumed conversation that sent one (its thank-you line). */}
              {chunk("lead")?.view(h, c) ??
                (lf && (s.leadSent || (!s.messages.length ? lf.beforeFirstMessage != "off" : s.messages.filter((m) => m.role == "user").length == lf.afterMessages || last?.offersLeadForm)) && void c.collect())}
            </div>
            )}
            {chunk("handoff")?.bar(h, c)}
            {ask && !listView && (
              <button type="button" class="bt" onClick={ask}>
                {t.talkToPerson}
              </button>
            )}
            {this.asking && (
              <div class="n" role="alertdialog" aria-label={t.newConversationConfirm}>
                <p>{t.newConversationConfirm}</p>
                <button ref={this.yes} type="button" class="bt" onClick={this.fresh}>
                  {t.newConversation}
                </button>
                <button type="button" class="bt" onClick={this.confirm}>
                  {t.cancel}
                </button>
              </div>
            )}
            {n && (
              <div class="n" role="alert">
                <p>{n.text}</p>
                {/* The chat cannot go on here: how to reach the owner instead (their contact line, the blocked chunk's). */}
                {blocked && chunk("blocked")?.contact(h, c, inline)}
                {(n.retry || n.redo) && (
                  <button type="button" class="bt" onClick={() => (n.redo ? n.redo() : c.retry())}>
                    {t.retry}
                  </button>
                )}
                {n.fresh && (
                  <button type="button" class="bt" onClick={this.fresh}>
                    {t.newConversation}
                  </button>
                )}
              </div>
            )}
            {s.status && (
              <div class="left" role="status">
                {s.status}
              </div>
            )}
            {s.remaining !== null && s.remaining > 0 && s.remaining <= 3 && <div class="left">{t.remaining(s.remaining)}</div>}
            {!listView && (
            <form class="c" onSubmit={this.submit}>
              {/* The files chunk read them (the only way in): it shows them too. */}
              {chunk("files")?.chips(h, c, t, (label, onClick) => iconButton(label, CLOSE, { onClick }))}
              {cfg.allowAttachments && (
                <>
                  <input
                    ref={this.file}
                    type="file"
                    multiple
                    hidden
                    accept={readableExtensions.join()}
                    onChange={(e) => {
                      const el = e.currentTarget;
                      void c.addFiles([...(el.files ?? [])]);
                      el.value = "";
                    }}
                  />
                  {iconButton(t.attach, "m20 12-8 8a5 5 0 0 1-7-7l9-9a3 3 0 0 1 4 4l-8 8a1.5 1.5 0 0 1-2-2l7-7", { disabled: blocked, onClick: () => this.file.current?.click() })}
                </>
              )}
              <textarea
                ref={this.input}
                rows={1}
                aria-label={t.messageLabel}
                placeholder={t.placeholder}
                disabled={blocked}
                value={s.draft}
                onInput={(e) => c.set({ draft: e.currentTarget.value })}
                onBlur={() => chunk("handoff")?.idle(c)}
                onKeyDown={(e) => e.key === "Enter" && !e.shiftKey && !e.isComposing && this.submit(e)}
              />
              {s.busy
                ? iconButton(t.stop, "M7 7h10v10H7z", { class: "i sd", onClick: () => c.stop() })
                : iconButton(t.send, "m4 12 16-8-6 16-2-7z", { type: "submit", class: "i sd", disabled: blocked || !(s.draft.trim() || s.attachments.length) })}
            </form>
            )}
            {/* Outside the live log: read in its place, never announced as news. The line is the link when both are set. */}
            {!listView && (pv || pu) && (
              <p class="left" dir="auto">
                {pu ? link(pu, pv || pu) : pv}
              </p>
            )}
          </div>
        )}
      </div>
    );
  }
}
