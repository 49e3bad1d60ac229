// widget-chunks/blocked.{hash}.js: what the visitor is told when the chat cannot go on (a paused,
// over-limit or switched-off assistant, a refused visitor token), in every language, and the
// renewal of a refused token through the host page, and the owner's contact line under the
// refusal: loaded at that moment, by few visitors.
import type { ComponentChildren, h as preactH, VNode } from "preact";
import { widgetBlockedStrings, type WidgetBlockedStrings } from "../../../contract/widget-strings";
import type { Controller } from "../core/controller";
import { subOf } from "../core/storage";
import { register } from "./register";

export interface BlockedChunk {
  /**
   * The sentence for a final refusal: a refused token's plain one (never the server's technical
   * text), the contract's refusals (as the server sends them in English) in the visitor's language,
   * else the server's text.
   */
  say(c: Controller, error: string | null, reason?: string): string | null;
  /**
   * Asks the host page's refresh (`c.rfr`) for a new token, once until the server accepts a call
   * again (`c.rnw`). True when it gave one of the same user, now `c.visTok`; a throw, nothing, the
   * same token or another user's: false. identify() or logout() meanwhile decide instead.
   */
  renew(c: Controller): Promise<boolean>;
  /**
   * The owner's contact line (`config.contactLine`) under the refusal, its links made clickable by
   * the core's `inline`, its e-mail addresses and phone numbers by `reachable`; `dir="auto"`: the owner's words read in their own direction in an RTL
   * panel. Null when the owner set none. Preact's `h` comes from the core, as in the files chunk.
   */
  contact(h: typeof preactH, c: Controller, inline: (text: string) => ComponentChildren[]): VNode | null;
}

function say(c: Controller, error: string | null, reason?: string) {
  const en = widgetBlockedStrings.en;
  const t = widgetBlockedStrings[c.state.locale];
  if (reason === "identity-invalid") return t.tokenExpired;
  const known = (Object.keys(en) as (keyof WidgetBlockedStrings)[]).find((k) => en[k] === error);
  // A limit reached without the server's text (the remaining count came to 0): its sentence by its reason.
  return known ? t[known] : (reason === "session-limit" ? t.sessionLimitReached : reason === "daily-limit" ? t.dailyLimitReached : error);
}

async function renew(c: Controller) {
  const old = c.visTok;
  c.rnw = true;
  let next: unknown;
  try {
    next = await c.rfr?.();
  } catch {
    // none
  }
  if (typeof next !== "string" || !next || next === old || c.visTok !== old || subOf(next) !== subOf(old!)) return false;
  c.visTok = next;
  return true;
}

/**
 * An e-mail address, or digit groups that may be a phone number: an optional `+` and country code,
 * an optional bracketed area code, then digit runs joined by one space, dot or dash (a bracket
 * after a number, "(10h-18h)", never continues it). `phone` below decides which are numbers.
 */
const REACHABLE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:\+\d{1,3}[ .\u00a0-]?)?(?:\(\d{1,4}\)[ .\u00a0-]?)?\d+(?:[ .\u00a0-]\d+){0,6}/g;

/**
 * Digit groups written as a phone number: 8 to 15 digits, starting with `+`, a bracket or a national
 * trunk `0` (so dates, years, references and tax numbers stay text), dots and dashes never mixed
 * (opening hours "09.00-18.00"), not a date ("05.06.2025"), and not part of a word.
 */
const phone = (found: string, before: string, after: string, digits: string) =>
  digits.length >= 8 &&
  digits.length <= 15 &&
  /^[+(0]/.test(found) &&
  !(found.includes(".") && found.includes("-")) &&
  !/^\d{1,2}[.-]\d{1,2}[.-]\d{2,4}$/.test(found) &&
  !/\w/.test(before + after);

/**
 * The plain text of the owner's line with its e-mail addresses and phone numbers as `mailto:` and
 * `tel:` links (a tap writes or calls on a phone). The addresses are built from the matched
 * characters only (word characters, `.+-@`; digits and a leading `+`), so nothing else reaches an href.
 */
export function reachable(h: typeof preactH, text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(REACHABLE)) {
    const found = m[0];
    const digits = found.replace(/\D/g, "");
    const mail = found.includes("@");
    if (!mail && !phone(found, text.charAt(m.index - 1), text.charAt(m.index + found.length), digits)) continue;
    // A number is never cut across two lines, and reads left to right in a right-to-left line.
    out.push(text.slice(last, m.index), h("a", mail ? { href: `mailto:${found}` } : { href: `tel:${found[0] === "+" ? "+" : ""}${digits}`, dir: "ltr", style: { whiteSpace: "nowrap" } }, found));
    last = m.index + found.length;
  }
  out.push(text.slice(last));
  return out;
}

const contact = (h: typeof preactH, c: Controller, inline: (text: string) => ComponentChildren[]): VNode | null => {
  const line = c.state.config?.contactLine;
  // Markdown links stay the owner's; only the plain text between them is searched.
  return line ? h("p", { dir: "auto", style: { marginTop: "6px", overflowWrap: "anywhere" } }, inline(line).map((p) => (typeof p === "string" ? reachable(h, p) : p))) : null;
};

register("blocked", { say, renew, contact });
