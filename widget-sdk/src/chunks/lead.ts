// The owner's lead form (contract/schemas/leads.ts): the code of the lead-en, lead-fr and lead-ar
// chunks (widget-chunks/lead-{en,fr,ar}.{hash}.js), each this code with one language's texts, so
// a visitor loads one file for the form, in their language. The core asks for its visitor's one
// when it finds the form may be due (Controller.leadPart: before the first message, after the
// visitor's N-th, under an answer offering it) or when the handoff chunk's e-mail ask uses it;
// from then on the first loaded follows the widget and decides: once per trigger and
// conversation, never after a lead was sent. Rendered at the end of the conversation (the core's
// one slot), styled with the core's classes.
import type { h as preactH, VNode } from "preact";
import type { LeadField, LeadTrigger, WidgetLeadForm } from "../../../contract/schemas/leads";
import type { WidgetLeadStrings, WidgetLocale } from "../../../contract/widget-strings";
import { sessionPath } from "../core/api";
import { chunk } from "../core/chunks";
import * as L from "./lead-contract";
import type { Controller, Notice } from "../core/controller";
import { register } from "./register";

type H = typeof preactH;

export interface LeadChunk {
  /** Starts following `c` (once): shows the form when one of the owner's triggers is due. */
  on(c: Controller): void;
  /** The form while it shows, else nothing (the core's slot at the end of the conversation). */
  view(h: H, c: Controller): VNode | null;
  /** The handoff's e-mail ask: the form instead, under `intro`, sent with trigger "handoff". */
  byHandoff(c: Controller, intro: string): void;
}

/** What the chunk keeps per widget. */
interface Form {
  /** The conversation this is about (null until it opens: the form before the first message may open it). */
  sid: string | null;
  /** Why the form shows ("offer": under an answer offering it; "": it does not). */
  why?: LeadTrigger | "offer" | "";
  /** Under an answer offering it: why that answer offered it, as the server said (`leadTrigger`), when it said. */
  said?: LeadTrigger;
  /** What showed it in this conversation already (a trigger, or an offering answer's id): each once. */
  seen: string[];
  /** The visitor's messages when it opened: a new one closes an optional form (they chose to write). */
  count?: number;
  vals: Record<string, string>;
  errs: Record<string, string>;
  /** The announced line above the buttons: what to fix, the server's refusal, a failure (`retry`: trying again may help). */
  line?: string;
  retry?: boolean;
  busy?: boolean;
  /** At its next render, focus goes to the first invalid field, else the first field. */
  jump?: boolean;
  /** The handoff's ask, as the intro of the form it opened. */
  lede?: string;
  /** The notice that disables the composer while a required form waits (ours to take back). */
  mine?: Notice | null;
  /** The languages whose texts were asked for (once each: a chunk that did not load says so, with its notice). */
  langs: string[];
}

const all = new WeakMap<Controller, Form>();
/** The texts of the chunk that loaded first (the form's code is its), until the visitor's language's have loaded. */
let first: WidgetLeadStrings;
/** The visitor's language's texts once their chunk has loaded (another language chosen later loads its own), else the first's. */
const strings = (c: Controller) => chunk(`lead-${c.state.locale}`) || first;
/** The owner's text in the visitor's language, else in English (then the caller's default). */
const own = (c: Controller, text: Partial<Record<string, string>>) => text[c.state.locale] || text.en;
/** A field's label: the owner's, else the kind's; a text field whose owner wrote it in another language only, that one. */
const labelOf = (c: Controller, f: LeadField) => own(c, f.label) || strings(c).leadKinds[f.kind as "name"] || Object.values(f.label)[0] || f.key;
const formOf = (c: Controller) => c.state.config?.leadForm as WidgetLeadForm | undefined;
const users = (c: Controller) => c.state.messages.filter((m) => m.role === "user");
/**
 * The trigger sent with the lead. Under an answer offering the form, the visitor asked to be
 * contacted or the assistant did not know: the answer's `leadTrigger` says which; without it, only
 * the owner's choice tells (both on: none sent).
 */
const triggerOf = (f: WidgetLeadForm, s: Form): LeadTrigger | undefined =>
  s.why !== "offer" ? s.why || undefined : s.said || (f.whenAsked === f.whenUnanswered ? undefined : f.whenAsked ? "asked" : "unanswered");

/** A signed visitor's token's claims, read without verifying them (the server verifies the token on every call); none for anyone else. */
function claims(c: Controller): Record<string, unknown> {
  try {
    // base64url, then UTF-8 (a name in Arabic): escape() gives each byte as %XX for decodeURIComponent.
    return JSON.parse(decodeURIComponent(escape(atob(c.visTok!.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))))) ?? {};
  } catch {
    return {};
  }
}

/** A signed visitor's name and e-mail from their token (the session's `visitor` is the same), into empty fields. */
function prefill(c: Controller, s: Form) {
  const known = claims(c);
  for (const key of ["name", "email"]) {
    const v = known[key];
    if (typeof v === "string" && !s.vals[key]) s.vals[key] = v.slice(0, L.maxChars[L.fieldKinds.indexOf(key as "name")]);
  }
}

/**
 * A conversation this browser keeps for the visitor (the core's key: per assistant, and per user
 * when signed), not open yet: it is being resumed, and may have messages. Before the first
 * message waits for it, so a returning visitor never sees the form flash (nor loses focus to it).
 */
const resuming = (c: Controller) => !c.currentSession && !!c.kept();

function show(c: Controller, s: Form, why: Form["why"]) {
  s.why = why;
  s.count = users(c).length;
  s.line = "";
  s.retry = false;
  prefill(c, s);
}

/** On every change of the widget's state: a new conversation, a trigger due, the composer's block. */
function sync(c: Controller, s: Form) {
  const f = formOf(c);
  const sid = c.currentSession;
  const m = c.state.messages;
  const u = users(c);
  // Another conversation (new, or reopened): nothing of this one's carries over but the values typed.
  if (s.sid && sid !== s.sid) Object.assign(s, { why: "", seen: [], errs: {}, line: "" });
  s.sid = sid;
  // A lead sent: the owner's thank-you line (or the default) as an answer (no id: never rated), after the message
  // `leadAfter` names (the session's when resumed, the last one when sent here; null: first).
  const at = c.state.leadAfter;
  if (f && sid && at !== undefined && !m.some((x) => x.key === `tl${sid}`)) {
    const n = [...m];
    n.splice(m.findIndex((x) => x.key === at) + 1, 0, { key: `tl${sid}`, role: "assistant", text: own(c, f.thanks) || strings(c).leadThanks, files: [], status: "complete" });
    return c.set({ messages: n });
  }
  if (!f || (c.state.leadSent && sid)) s.why = "";
  else if (s.why) {
    // Before the first message: only while there is none. A person's ask: while one is asked for. Others: until the visitor writes.
    if (s.why === "handoff" ? !c.state.handing : s.why === "before-first-message" ? m.length : u.length > s.count!) s.why = "";
  } else {
    const last = m[m.length - 1];
    const nth = u[f.afterMessages - 1];
    // The N-th message sent now (its key is the widget's own id), not one read back from the server.
    const why =
      f.beforeFirstMessage !== "off" && !m.length && !resuming(c)
        ? "before-first-message"
        : f.afterMessages && u.length === f.afterMessages && nth!.key !== nth!.id
          ? "after-messages"
          : last?.offersLeadForm && last.id
            ? last.id
            : "";
    if (why && !s.seen.includes(why)) {
      s.seen.push(why);
      show(c, s, why === last?.id ? "offer" : (why as LeadTrigger));
      // The server's reason for the offer, when it is one of the two it may give (anything else: none).
      const said = last?.leadTrigger;
      s.said = why === last?.id && (said === "asked" || said === "unanswered") ? said : undefined;
      // Required before the first message: the visitor starts there (the composer is disabled).
      s.jump = f.beforeFirstMessage === "required" && why === "before-first-message";
    }
  }
  // The form's texts in the visitor's language, when it changed after the form's chunk loaded, asked for once it shows.
  const loc = c.state.locale;
  if (s.why && !chunk(`lead-${loc}`) && !s.langs.includes(loc)) {
    s.langs.push(loc);
    void c.part(`lead-${loc}`).then(() => c.set({}));
  }
  // A required form disables the composer with a line saying why (a limit's own block stays).
  const block = s.why === "before-first-message" && f?.beforeFirstMessage === "required";
  const n = c.state.notice;
  if (block && !n?.blocking) c.set({ notice: (s.mine = { text: strings(c).leadFirst, blocking: true }) });
  else if (!block && n && n === s.mine) c.set({ notice: null });
}

/** Checks each value as the server does, then POSTs them; the server's refusal lands on the field it names, or above the buttons. */
async function submit(c: Controller, s: Form, el: HTMLElement) {
  const f = formOf(c);
  if (!f || s.busy) return;
  const k = strings(c);
  const fields: Record<string, string> = {};
  s.errs = {};
  for (const x of f.fields) {
    const v = (s.vals[x.key] ?? "").trim();
    const digits = v.replace(/\D/g, "").length;
    const error = !v
      ? x.required && k.leadMissing(labelOf(c, x))
      : x.kind === "email" && !L.emailPattern.test(v)
        ? k.leadEmail
        : x.kind === "phone" && (!L.phonePattern.test(v) || digits < L.phoneMin || digits > L.phoneMax) && k.leadPhone;
    if (error) s.errs[x.key] = error;
    if (v) fields[x.key] = v;
  }
  s.retry = false;
  s.line = Object.keys(s.errs).length ? k.leadFix : "";
  s.jump = !!s.line;
  if (s.line) return c.set({});
  s.busy = true;
  c.set({});
  const panel = el.closest(".p");
  const sid = (await c.ensure()) && c.currentSession;
  let status = 0;
  let body: { error?: unknown; fields?: unknown } | null = null;
  if (sid) {
    try {
      const res = await c.once(`${sessionPath(sid)}/lead`, { fields, trigger: triggerOf(f, s) });
      status = res.status;
      body = (await res.json().catch(() => null)) as { error?: unknown; fields?: unknown } | null;
    } catch {
      // offline, refused, timed out: status 0
    }
  }
  s.busy = false;
  if (sid && c.currentSession !== sid) return c.set({});
  if (status > 199 && status < 300) {
    s.why = "";
    // The owner's thank-you line replaces the form, at the end of the conversation (sync); focus goes back to the message box.
    c.set({ leadSent: true, leadAfter: c.state.messages.at(-1)?.key ?? null });
    setTimeout(() => panel?.querySelector("textarea")?.focus());
    return;
  }
  // A field the server named in the envelope's `fields` (`fields.<key>`, or `<key>`).
  const error = typeof body?.error === "string" ? body.error : "";
  const named = body?.fields && typeof body.fields === "object" ? Object.entries(body.fields as Record<string, unknown>) : [];
  let on = false;
  for (const [name, text] of named) {
    const key = name.replace(/^fields\./, "");
    if (typeof text === "string" && f.fields.some((x) => x.key === key)) on = !!(s.errs[key] = text);
  }
  s.line = on ? k.leadFix : error || k.leadFailed;
  s.retry = !status || status > 499 || status === 429;
  s.jump = true;
  c.set({});
}

const box = { display: "block", width: "100%", margin: "2px 0 6px", padding: "6px 8px", border: "1px solid var(--bd)", borderRadius: "8px" };
const toInput = (e: Event) => (e.currentTarget as HTMLElement | null)?.closest(".p")?.querySelector("textarea")?.focus();

function view(h: H, c: Controller): VNode | null {
  const t = c.t;
  const s = all.get(c);
  const f = formOf(c);
  if (!s?.why || !f) return null;
  const k = strings(c);
  const dismissable = s.why !== "before-first-message" || f.beforeFirstMessage !== "required";
  const close = (e: Event) => {
    s.why = "";
    toInput(e);
    c.set({});
  };
  return h(
    "form",
    {
      class: "n",
      noValidate: true,
      "aria-labelledby": "tl-i",
      // A ref object (the core's Preact takes no callback refs: build.mjs trims them) whose setter jumps once the form is in the DOM.
      ref: {
        set current(el: HTMLElement | null) {
          if (el && s.jump) {
            s.jump = false;
            (el.querySelector<HTMLElement>("[aria-invalid=true]") ?? el.querySelector("input"))?.focus();
          }
        },
      },
      onSubmit: (e: Event) => {
        e.preventDefault();
        void submit(c, s, e.currentTarget as HTMLElement);
      },
      onKeyDown: (e: KeyboardEvent) => {
        if (e.key === "Escape" && dismissable) {
          e.stopPropagation();
          close(e);
        }
      },
    },
    h("p", { id: "tl-i", dir: "auto" }, (s.why === "handoff" && s.lede) || own(c, f.intro) || k.leadIntro),
    f.fields.map((x) => {
      const id = `tl-${x.key}`;
      const error = s.errs[x.key];
      // name, email, phone, company, text: what the browser fills in, the keyboard, the direction (addresses and numbers read left to right).
      const i = L.fieldKinds.indexOf(x.kind);
      return [
        h("label", { for: id, style: { display: "block" } }, labelOf(c, x), x.required && ` (${k.leadRequired})`),
        h("input", {
          id,
          name: x.key,
          type: ["text", "email", "tel"][i] ?? "text",
          autocomplete: ["name", "email", "tel", "organization"][i],
          dir: i === 1 || i === 2 ? "ltr" : "auto",
          maxLength: L.maxChars[i],
          required: x.required,
          value: s.vals[x.key] ?? "",
          "aria-invalid": !!error,
          "aria-describedby": error ? `${id}-e` : undefined,
          style: box,
          onInput: (e: Event) => (s.vals[x.key] = (e.currentTarget as HTMLInputElement).value),
        }),
        error && h("p", { id: `${id}-e` }, error),
      ];
    }),
    s.line && h("p", { role: "alert" }, s.line),
    h("button", { type: "submit", class: "bt", disabled: s.busy }, s.retry ? t.retry : t.send),
    dismissable && h("button", { type: "button", class: "bt", onClick: close }, k.leadNotNow),
  ) as VNode;
}

function on(c: Controller) {
  if (all.has(c)) return;
  // The rest starts unset (falsy): no reason, no line, not busy.
  const s: Form = { sid: c.currentSession, seen: [], vals: {}, errs: {}, langs: [] };
  all.set(c, s);
  c.subscribe(() => sync(c, s));
  sync(c, s);
  c.set({});
}

function byHandoff(c: Controller, intro: string) {
  on(c);
  const s = all.get(c)!;
  if (!formOf(c) || c.state.leadSent) return;
  show(c, s, "handoff");
  s.lede = intro;
  c.set({});
}

/**
 * A lead chunk's one statement: its language's texts, and the form's code unless another lead
 * chunk brought it first (the code that follows the widget keeps its state; a later language only adds its texts).
 */
export function registerLead(locale: WidgetLocale, texts: WidgetLeadStrings) {
  register(`lead-${locale}`, texts);
  if (!chunk("lead")) {
    first = texts;
    register("lead", { on, view, byHandoff });
  }
}
