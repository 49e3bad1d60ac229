// widget-chunks/visitor.{hash}.js: a verified visitor's Conversations view, loaded when
// they open it. Preact's `h` comes from the core (one Preact on the page, one VNode shape), so the
// view is written with `h` calls rather than JSX.
import type { h as preactH, VNode } from "preact";
import { widgetVisitorStrings, type WidgetLocale, type WidgetStrings } from "../../../contract/widget-strings";
import { conversationsPath } from "../core/api";
import type { Controller } from "../core/controller";
import { isConversations } from "../core/frames";
import { register } from "./register";

export interface VisitorChunk {
  /**
   * `c.state.list`, newest first as the server sends it: each conversation its first question and
   * when it was last written in; choosing one reopens it. `fresh` starts a new conversation.
   */
  list(h: typeof preactH, c: Controller, t: WidgetStrings, locale: WidgetLocale, fresh: () => void): VNode;
  /**
   * GET /api/widget/conversations with the token (renewed once through the host page when refused),
   * its answer checked, into `c.state.list`; a failure as the core's. A conversation changed meanwhile
   * (a new one, another visitor) drops the answer.
   */
  show(c: Controller): Promise<void>;
}

async function show(c: Controller) {
  const epoch = c.epoch;
  const get = () => c.api(conversationsPath());
  const first = await get();
  const res = (await c.renewed(first)) ? await get() : first;
  if (epoch !== c.epoch) return;
  if (!res.ok || !isConversations(res.data)) return c.fail((!res.ok && res.error) || c.t.loadFailed, res.ok ? undefined : c.refusal(res));
  c.set({ list: res.data.conversations, notice: null });
}

function list(h: typeof preactH, c: Controller, t: WidgetStrings, locale: WidgetLocale, fresh: () => void): VNode {
  const when = (ms: number) => {
    try {
      return new Date(ms).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
    } catch {
      return "";
    }
  };
  const items = c.state.list ?? [];
  return h(
    "div",
    { class: "g", role: "region", "aria-label": t.conversations },
    h("button", { type: "button", class: "bt", onClick: fresh }, t.newConversation),
    items.length
      ? h(
          "ul",
          { style: { padding: 0, listStyle: "none", display: "grid", gap: "6px" } },
          items.map((v) =>
            h(
              "li",
              { key: v.sessionId },
              h(
                "button",
                // Styled here, not in the core's sheet: only this view needs it. Set through the
                // CSSOM by Preact (never a style attribute), so host CSPs do not matter.
                { type: "button", class: "m1", style: { width: "100%", maxWidth: "none", textAlign: "start", display: "grid" }, onClick: () => void c.reopen(v.sessionId) },
                h("span", { dir: "auto" }, v.title),
                h("span", { class: "t" }, when(v.lastMessageAt)),
              ),
            ),
          ),
        )
      : h("p", { class: "t" }, widgetVisitorStrings[locale].noConversations),
  );
}

register("visitor", { list, show });
