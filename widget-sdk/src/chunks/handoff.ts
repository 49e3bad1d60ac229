// widget-chunks/handoff.{hash}.js: a person of the site's team taking over the visitor's
// conversation (contract/schemas/handoff.ts), with its English texts (French and Arabic are the
// handoff-fr / handoff-ar chunks, which it loads for those visitors). Loaded when
// the visitor presses "Talk to a person", when the conversation opened has a handoff, or when a
// handoff or typing frame arrives. It makes its own calls and reads its own event stream, so the
// core carries only the hooks. Preact's `h` comes from the core, as in the other view chunks;
// styled here through the CSSOM, not in the core's sheet.
import type { h as preactH, VNode } from "preact";
import type { AgentAuthor, ConversationHandoff } from "../../../contract/schemas/handoff";
import type { WidgetServerFrame } from "../../../contract/schemas/widget";
import { enHandoffStrings } from "../../../contract/widget-strings";
import { eventsPath, handoffPath, sessionPath } from "../core/api";
import { chunk } from "../core/chunks";
import * as C from "../core/contract";
import type { Controller, UiMessage } from "../core/controller";
import type { renderMarkdown } from "../core/markdown";
import { register } from "./register";

type H = typeof preactH;

export interface HandoffChunk {
  /** Starts following `c` (once), then applies `f`: a handoff change or the person's typing. */
  on(c: Controller, f?: WidgetServerFrame): void;
  /** POST …/handoff: asks for a person in the open conversation. */
  ask(c: Controller): Promise<void>;
  /** Above the composer: the person's typing, the waiting card (hours, reply time, back to the assistant, the e-mail ask). */
  bar(h: H, c: Controller): VNode[] | null;
  /**
   * A person's message (their photo or initials and name over it, the text as an answer's: safe
   * markdown, no rating) or a note of the conversation (a person joined, handed back, an address was left).
   */
  message(h: H, m: UiMessage, dir: "rtl" | "ltr", markdown: typeof renderMarkdown): VNode;
  /** The message box lost focus: the visitor no longer types. */
  idle(c: Controller): void;
}

/** What the chunk keeps per widget. */
interface Follow {
  /** The session, and its handoff state, last seen: a change between them is a live one (a note). */
  sid: string | null;
  was: string;
  /** The draft last seen, and when the visitor's typing was last sent (0: "not typing" sent). */
  draft: string;
  sent: number;
  /** The person types until `until`; their messages seen (a new one ends their typing). */
  who?: string;
  until: number;
  agents: number;
  /** Ticks once a second while a person is asked for or has it: the event stream, typing and the e-mail ask's time. */
  tick?: ReturnType<typeof setInterval>;
  shown: string;
  /** The event stream (when the socket is not open), its failures in a row, and when it may be opened next. */
  stream: AbortController | null;
  fails: number;
  next: number;
  /** Handoff frames applied: a session read that started before one of them is older than it. */
  changes: number;
  /** The e-mail ask: "no" (declined), "done" (left) or "lead" (the owner's lead form asked) in this session; the field's value and its error. */
  email: string;
  value: string;
  error: string;
  /** The languages whose texts were asked for (once each: a chunk that did not load says so, with its notice). */
  langs: string[];
}

const all = new WeakMap<Controller, Follow>();
/** English, or the visitor's language once its texts' chunk (handoff-fr, handoff-ar) has loaded. */
const strings = (c: Controller) => (c.state.locale !== "en" && chunk(`handoff-${c.state.locale}` as "handoff-fr")) || enHandoffStrings;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** A person as the server sent them: name and initials as text (else none), a photo's address. */
function person(v: unknown): AgentAuthor | undefined {
  const a = v as Record<string, unknown> | null | undefined;
  return a && str(a.name) ? { name: a.name as string, initials: str(a.initials) ?? "", photoUrl: str(a.photoUrl) } : undefined;
}

/** A handoff from the server with the fields the widget shows checked (anything else: none known). */
function clean(v: unknown): ConversationHandoff | undefined {
  const h = v as Record<string, unknown> | null | undefined;
  if (!h || !/^(none|requested|taken)$/.test(h.state as string)) return undefined;
  return {
    state: h.state as ConversationHandoff["state"],
    agent: person(h.agent),
    askEmailAt: typeof h.askEmailAt === "number" ? h.askEmailAt : undefined,
    emailLeft: h.emailLeft === true,
    businessHours: str(h.businessHours),
    replyTime: str(h.replyTime),
  };
}

/** Adds a note at the end of the conversation (announced by its live log); its author (none: a blank one) has the core hand it here. */
const note = (c: Controller, text: string, author: AgentAuthor = { name: "", initials: "" }) =>
  c.set({ messages: [...c.state.messages, { key: `n${Date.now()}${Math.random()}`, role: "note", text, files: [], status: "complete", author }] });

/** One request with the assistant's key (and the signed visitor's token), no cookies. */
function request(c: Controller, path: string, method: string, body?: unknown, signal?: AbortSignal) {
  const headers: Record<string, string> = { [C.keyHeader]: c.srvKey, "content-type": "application/json" };
  if (c.visTok) headers[C.tokenHeader] = c.visTok;
  return fetch(c.srvHost + path, { method, headers, body: body ? JSON.stringify(body) : undefined, credentials: "omit", signal });
}

interface Reply {
  ok: boolean;
  /** 0: the network failed (offline, refused, timed out). */
  status: number;
  data: Record<string, unknown> | null;
}

/** A call's answer, never thrown. No automatic retry: a failure shows with Retry. */
async function call(c: Controller, path: string, method: string, body?: unknown): Promise<Reply> {
  try {
    const res = await request(c, path, method, body, AbortSignal.timeout(C.timeoutMs));
    return { ok: res.ok, status: res.status, data: (await res.json().catch(() => null)) as Reply["data"] };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

/** Trying again may help: offline, a 5xx, throttled. */
const transient = (res: Reply) => !res.status || res.status >= 500 || res.status === 429;

/** A call that failed: the server's text, or ours, with Retry when trying again may help. */
function failed(c: Controller, res: Reply, redo: () => void) {
  c.set({ notice: { text: str(res.data?.error) || strings(c).requestFailed, redo: transient(res) ? redo : undefined } });
}

/** The handoff in a 202 answer, applied; false when the call failed. */
function took(c: Controller, res: Reply) {
  const h = res.ok && clean(res.data?.handoff);
  if (h) c.set({ handoff: h, notice: null });
  return !!h;
}

/** POST (ask for a person) or DELETE (back to the assistant) …/handoff. */
async function change(c: Controller, method: string) {
  const sid = c.currentSession;
  if (!sid) return;
  const res = await call(c, handoffPath(sid), method, method === "POST" ? {} : undefined);
  if (c.currentSession === sid && !took(c, res)) failed(c, res, () => void change(c, method));
}
const ask = (c: Controller) => change(c, "POST");

/** Leaves an address for the reply: checked here as the server checks it, then POST …/handoff { email }. */
async function leave(c: Controller, s: Follow, panel: Element | null) {
  const sid = c.currentSession;
  const email = s.value.trim();
  const k = strings(c);
  if (!sid) return;
  s.error = email.length > C.maxEmailChars || !C.emailPattern.test(email) ? k.emailInvalid : "";
  if (s.error) return c.set({});
  const res = await call(c, handoffPath(sid), "POST", { email });
  if (c.currentSession !== sid) return;
  if (!took(c, res)) {
    // A refusal (the address, the conversation) shows in the form; a failure that may pass offers Retry.
    if (!transient(res)) {
      s.error = str(res.data?.error) || k.emailInvalid;
      return c.set({});
    }
    return failed(c, res, () => void leave(c, s, panel));
  }
  s.email = "done";
  note(c, k.emailThanks);
  panel?.querySelector("textarea")?.focus();
}

/** The visitor types (`on`) or stopped: sent on the socket at most every typingSendMs, "stopped" once. */
function typing(c: Controller, s: Follow, on: boolean) {
  const now = Date.now();
  if (on ? now - s.sent < C.typingSendMs : !s.sent) return;
  s.sent = on ? now : 0;
  const ws = c.transport?.live();
  // readyState 1: OPEN. Without a socket the person sees no typing (the event stream reads only).
  if (ws?.readyState === 1) ws.send(JSON.stringify({ event: "typing", data: { typing: on } }));
}

/** Reads the session's event stream while the socket is not open; a cut or a failure waits longer each time (1 s doubling to 30 s). */
async function listen(c: Controller, s: Follow) {
  const sid = c.currentSession!;
  const abort = (s.stream = new AbortController());
  let ok = false;
  try {
    const sse = await c.part("sse");
    const res = sse && (await request(c, eventsPath(sid), "GET", undefined, abort.signal));
    if (res && res.ok && res.body) {
      // What came while no stream was open (a cut, the socket's last moments): the session's messages, each applied once.
      void catchUp(c, s, sid);
      // Checked as the socket's frames are, then applied as theirs (a message already shown is not added twice).
      await sse.readStream(res.body, (event, data) => c.currentSession === sid && c.frame(event, data));
      // It ended as it should (it lasts eventStreamMaxMs): the next one opens at once.
      ok = true;
    }
  } catch {
    // cut midway, or the network failed: below
  }
  if (s.stream === abort) s.stream = null;
  s.fails = ok ? 0 : s.fails + 1;
  s.next = Date.now() + (ok ? 0 : Math.min(1000 * 2 ** (s.fails - 1), 30_000));
}

async function catchUp(c: Controller, s: Follow, sid: string) {
  const changes = s.changes;
  const res = await call(c, sessionPath(sid), "GET");
  if (!res.ok || c.currentSession !== sid) return;
  const messages = res.data?.messages;
  // Each checked by the core as a frame's (a system message is never shown).
  for (const m of Array.isArray(messages) ? messages : []) if (!c.state.messages.some((u) => u.id === m?.id)) c.frame("new-message", { message: m });
  const h = clean(res.data?.handoff);
  // A change the stream brought meanwhile is newer than this read.
  if (h && changes === s.changes && h.state !== c.state.handoff?.state) c.set({ handoff: h });
}

/** Whether the e-mail ask is due: requested, its time passed, no address left nor declined, not a signed visitor. */
const asking = (c: Controller, s: Follow, h: ConversationHandoff) =>
  h.state === "requested" && !!h.askEmailAt && Date.now() >= h.askEmailAt && !h.emailLeft && !c.state.verified && !s.email;
/** The owner's lead form asks instead (trigger "handoff"): it is on, has an e-mail field, and this conversation sent no lead. */
const byLead = (c: Controller) => !c.state.leadSent && !!c.state.config?.leadForm?.fields.some((f) => f.kind === "email");

function tick(c: Controller, s: Follow) {
  const h = c.state.handoff;
  if (!c.transport || !c.state.handing || !h) return stop(s);
  if (c.transport.live()?.readyState === 1) s.stream?.abort();
  else if (!s.stream && Date.now() >= s.next) void listen(c, s);
  // The ask is due and the owner's lead form takes it: shown once (the lead chunk's, which remembers it was dismissed or sent).
  if (asking(c, s, h) && byLead(c)) {
    s.email = "lead";
    void c.leadPart().then((k) => k?.byHandoff(c, strings(c).emailAsk));
  }
  // Only a change of what shows re-renders: the person's typing ended, the e-mail ask is due.
  const shown = `${s.until > Date.now()}${asking(c, s, h)}`;
  if (shown !== s.shown) {
    s.shown = shown;
    c.set({});
  }
}

function stop(s: Follow) {
  clearInterval(s.tick);
  s.tick = undefined;
  s.stream?.abort();
  s.stream = null;
  s.until = 0;
}

/** On every change of the widget's state: a new session, a live handoff change (a note), the visitor's typing, the tick. */
function sync(c: Controller, s: Follow) {
  const h = c.state.handoff;
  const loc = c.state.locale;
  if (loc !== "en" && !s.langs.includes(loc)) {
    s.langs.push(loc);
    void c.part(`handoff-${loc}` as "handoff-fr").then(() => c.set({}));
  }
  const state = h?.state ?? "none";
  if (c.currentSession !== s.sid) {
    Object.assign(s, { sid: c.currentSession, was: state, email: "", value: "", error: "", fails: 0, next: 0 });
    stop(s);
    // A new conversation starts with none (the core sets the next session's own when it opens).
    if (!c.currentSession && h) return c.set({ handoff: undefined });
  } else if (state !== s.was) {
    const was = s.was;
    s.was = state;
    const k = strings(c);
    if (state === "taken") note(c, k.joined(h!.agent?.name), h!.agent);
    else if (was === "taken") note(c, k.handedBack);
  }
  // A person's new message ends their typing.
  const agents = c.state.messages.filter((m) => m.role === "agent").length;
  if (agents > s.agents) s.until = 0;
  s.agents = agents;
  const handing = state !== "none";
  if (!!c.state.handing !== handing) c.set({ handing });
  if (!handing) {
    stop(s);
    s.draft = c.state.draft;
    return;
  }
  s.tick ??= setInterval(() => tick(c, s), 1000);
  if (c.state.draft !== s.draft) typing(c, s, !!(s.draft = c.state.draft));
}

function on(c: Controller, f?: WidgetServerFrame) {
  let s = all.get(c);
  if (!s) {
    const h = clean(c.state.handoff);
    s = { sid: c.currentSession, was: h?.state ?? "none", draft: c.state.draft, sent: 0, until: 0, agents: 0, changes: 0, shown: "", stream: null, fails: 0, next: 0, email: "", value: "", error: "", langs: [] };
    all.set(c, s);
    const follow = s;
    c.subscribe(() => sync(c, follow));
    c.set({ handoff: h });
  }
  if (f?.event === "handoff") {
    const h = clean(f.data.handoff);
    s.changes++;
    if (h) c.set({ handoff: h });
  } else if (f?.event === "typing") {
    // The person types (the core checked the frame only as an object).
    s.who = str(f.data.name);
    s.until = f.data.typing === true ? Date.now() + C.typingTtlMs : 0;
    c.set({});
  }
  sync(c, s);
}

/** The person's photo, over their initials (which show when there is no photo, or it does not load). */
function avatar(h: H, a: AgentAuthor) {
  const photo = a.photoUrl && /^https?:\/\//i.test(a.photoUrl) ? a.photoUrl : undefined;
  return h(
    "span",
    {
      "aria-hidden": "true",
      // The core's avatar box (.av, the header's), smaller and in the assistant's colour.
      class: "av",
      style: { width: "24px", height: "24px", fontSize: "11px", background: "var(--p)", color: "var(--op)" },
    },
    a.initials.slice(0, 3),
    photo &&
      h("img", {
        src: photo,
        alt: "",
        onError: (e: Event) => ((e.currentTarget as HTMLImageElement).hidden = true),
      }),
  );
}

const row = { display: "flex", alignItems: "center", gap: "6px" };
const toInput = (e: Event) => (e.currentTarget as HTMLElement | null)?.closest(".p")?.querySelector("textarea")?.focus();

function bar(h: H, c: Controller): VNode[] | null {
  const t = c.t;
  const s = all.get(c);
  const hd = c.state.handoff;
  if (!s || !hd || !c.state.handing) return null;
  const k = strings(c);
  const cfg = c.state.config?.handoff as Record<string, unknown> | undefined;
  const hours = hd.businessHours ?? str(cfg?.businessHours);
  const reply = hd.replyTime ?? str(cfg?.replyTime);
  const out: unknown[] = [];
  if (s.until > Date.now()) out.push(h("div", { class: "left ty", role: "status" }, k.personTyping(s.who || hd.agent?.name)));
  if (hd.state === "requested") {
    out.push(
      h(
        "div",
        { class: "n" },
        h("p", { role: "status" }, k.waiting),
        hours && h("p", { class: "t", dir: "auto" }, hours),
        reply && h("p", { class: "t", dir: "auto" }, reply),
        asking(c, s, hd) &&
          !byLead(c) &&
          h(
            "form",
            {
              noValidate: true,
              style: { marginTop: "8px" },
              onSubmit: (e: Event) => {
                e.preventDefault();
                void leave(c, s, (e.currentTarget as HTMLElement).closest(".p"));
              },
            },
            h("p", { role: "status" }, k.emailAsk),
            h(
              "label",
              { style: { display: "block", marginTop: "6px" } },
              k.emailLabel,
              h("input", {
                type: "email",
                autocomplete: "email",
                dir: "ltr",
                maxLength: C.maxEmailChars,
                value: s.value,
                "aria-invalid": !!s.error,
                "aria-describedby": s.error ? "he" : undefined,
                style: { display: "block", width: "100%", marginTop: "4px", padding: "6px 8px", border: "1px solid var(--bd)", borderRadius: "8px" },
                onInput: (e: Event) => (s.value = (e.currentTarget as HTMLInputElement).value),
              }),
            ),
            s.error && h("p", { id: "he", role: "alert", class: "t" }, s.error),
            h("button", { type: "submit", class: "bt" }, t.send),
            h(
              "button",
              {
                type: "button",
                class: "bt",
                onClick: (e: Event) => {
                  toInput(e);
                  s.email = "no";
                  c.set({});
                },
              },
              k.noThanks,
            ),
          ),
        h(
          "button",
          {
            type: "button",
            class: "bt",
            onClick: (e: Event) => {
              toInput(e);
              void change(c, "DELETE");
            },
          },
          k.backToAssistant,
        ),
      ),
    );
  }
  return out as VNode[];
}

function message(h: H, m: UiMessage, dir: "rtl" | "ltr", markdown: typeof renderMarkdown) {
  const a = person(m.author);
  // The avatar sits beside the dimmed text (.t), never inside it: its initials keep their contrast on --p.
  if (m.role === "note") return h("div", { key: m.key, dir: "auto", style: { ...row, alignSelf: "center", textAlign: "center" } }, a?.name && avatar(h, a), h("span", { class: "t" }, m.text)) as VNode;
  // As the core shows an answer: dir="auto", the hidden speaker label (their name) in the panel's direction; never rated.
  return h(
    "div",
    { key: m.key, dir: "auto", class: "m1" },
    h("span", { class: "x", dir }, `${a?.name ?? ""}: `),
    a && h("span", { "aria-hidden": "true", style: { ...row, marginBottom: "4px", fontWeight: 600 } }, avatar(h, a), h("span", { class: "t" }, a.name)),
    h("div", { class: "md" }, markdown(m.text)),
  ) as VNode;
}

function idle(c: Controller) {
  const s = all.get(c);
  if (s) typing(c, s, false);
}

register("handoff", { on, ask, bar, message, idle });
