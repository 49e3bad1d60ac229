import type { VNode } from "preact";
import { describe, expect, it, vi } from "vitest";
import { widgetStrings } from "../../../contract/widget-strings";
import type { Controller, State, UiMessage } from "./controller";
import "../chunks/ar";
import { App, message } from "./view";

type Props = Record<string, unknown>;
/** Every element VNode of a tree (depth first). */
function elements(node: unknown, out: VNode<Props>[] = []): VNode<Props>[] {
  if (Array.isArray(node)) node.forEach((n) => elements(n, out));
  else if (node && typeof node === "object" && "type" in node) {
    out.push(node as VNode<Props>);
    elements((node as VNode<Props>).props.children, out);
  }
  return out;
}
const t = widgetStrings.en;
const answer = (m: Partial<UiMessage> = {}): UiMessage => ({ key: "a1", id: "a1", role: "assistant", text: "Returns are free.", files: [], status: "complete", ...m });
const ratingButtons = (tree: unknown) => elements(tree).filter((e) => e.type === "button");

describe("an answer's rating buttons", () => {
  it("sit under a completed answer with a server id: Helpful and Not helpful, pressed as rated", () => {
    const rate = vi.fn();
    const [up, down] = ratingButtons(message(answer({ rating: "down" }), t, false, "ltr", rate));
    expect(up!.props).toMatchObject({ type: "button", "aria-label": t.helpful, "aria-pressed": false });
    expect(down!.props).toMatchObject({ type: "button", "aria-label": t.notHelpful, "aria-pressed": true });
    (up!.props.onClick as () => void)();
    expect(rate).toHaveBeenCalledWith("a1", "up");
    (down!.props.onClick as () => void)();
    expect(rate).toHaveBeenLastCalledWith("a1", "down");
  });

  it("are not under the welcome message, the visitor's messages, streaming, stopped or failed answers", () => {
    const rate = vi.fn();
    expect(ratingButtons(message(answer({ key: "", id: undefined }), t, false, "ltr"))).toEqual([]);
    expect(ratingButtons(message(answer({ key: "", id: undefined }), t, false, "ltr", rate))).toEqual([]);
    expect(ratingButtons(message(answer({ role: "user" }), t, false, "ltr", rate))).toEqual([]);
    for (const status of ["streaming", "stopped", "error"] as const) expect(ratingButtons(message(answer({ status }), t, false, "ltr", rate))).toEqual([]);
  });

  it("use the panel's language", () => {
    const [up, down] = ratingButtons(message(answer(), widgetStrings.ar, false, "rtl", vi.fn()));
    expect([up!.props["aria-label"], down!.props["aria-label"]]).toEqual([widgetStrings.ar.helpful, widgetStrings.ar.notHelpful]);
  });
});

describe("an answer's sources", () => {
  const sources = [
    { fileId: "f1", name: "faq.txt", excerpt: "Refunds within 30 days." },
    { fileId: "w1", name: "Returns | Shop", excerpt: "Free returns.", url: "https://shop.example/returns" },
    { fileId: "w2", name: "Evil", excerpt: "x", url: "javascript:alert(1)" },
    { fileId: "w3", name: "Relative", excerpt: "y", url: "/about" },
    { fileId: "w4", name: "Mail", excerpt: "z", url: "mailto:a@shop.example" },
  ];

  const chips = (tree: unknown) => elements(tree).filter((e) => e.props.class === "cp");

  it("are chips named by the file name or the page's title, each a disclosure of its passage", () => {
    const tree = message(answer({ sources }), t, true, "ltr", undefined, null, vi.fn());
    expect(elements(tree).filter((e) => e.type === "details" || e.type === "summary")).toEqual([]);
    const all = chips(tree);
    expect(all.map((e) => e.props.children)).toEqual(["faq.txt", "Returns | Shop", "Evil", "Relative", "Mail"]);
    for (const chip of all) {
      expect(chip.type).toBe("button");
      expect(chip.props).toMatchObject({ type: "button", "aria-expanded": false });
      const panel = elements(tree).find((e) => e.props.id === chip.props["aria-controls"])!;
      expect(panel.props.hidden).toBe(true);
    }
    // Unique ids per message and source.
    expect(new Set(all.map((e) => e.props["aria-controls"])).size).toBe(sources.length);
  });

  it("show the chosen chip's passage, expanded, and a click toggles it through the controller", () => {
    const show = vi.fn();
    const first = chips(message(answer({ sources }), t, true, "ltr", undefined, null, show))[0]!;
    (first.props.onClick as () => void)();
    expect(show).toHaveBeenCalledWith(first.props["aria-controls"]);
    const tree = message(answer({ sources }), t, true, "ltr", undefined, first.props["aria-controls"] as string, show);
    const open = chips(tree)[0]!;
    expect(open.props["aria-expanded"]).toBe(true);
    const panel = elements(tree).find((e) => e.props.id === open.props["aria-controls"])!;
    expect(panel.props.hidden).toBe(false);
    expect(panel.props.children).toContain("Refunds within 30 days.");
    expect(chips(tree).slice(1).every((c) => c.props["aria-expanded"] === false)).toBe(true);
  });

  it("link a web page (http and https only) in a new tab, named by its title; other addresses stay plain", () => {
    const links = elements(message(answer({ sources }), t, true, "ltr")).filter((e) => e.type === "a");
    expect(links).toHaveLength(1);
    expect(links[0]!.props).toMatchObject({ href: "https://shop.example/returns", target: "_blank", rel: "noopener noreferrer nofollow", children: "Returns | Shop" });
  });

  it("are shown only when the owner turned them on", () => {
    expect(elements(message(answer({ sources }), t, false, "ltr")).filter((e) => e.type === "a" || e.props.class === "cp")).toEqual([]);
  });
});

describe('the header\'s "+"', () => {
  const config = { id: "asst", headerText: "Shop", welcomeMessage: "Hi!", primaryColor: "#2563eb", position: "bottom-right", size: "medium", showSources: false, allowAttachments: false } as State["config"];
  function app(messages: UiMessage[]) {
    const state = { config, hidden: false, open: true, dark: false, locale: "en", messages, busy: false, remaining: null, notice: null, attachments: [], draft: "", verified: false, list: null, status: null, shown: null } as State;
    const c = { state, newConversation: vi.fn(), setOpen: vi.fn() } as unknown as Controller;
    const a = new App({ c, root: {} as ShadowRoot, host: {} as HTMLElement });
    const tree = () => elements(a.render(a.props));
    const plus = () => tree().find((e) => e.props["aria-label"] === t.newConversation)!;
    const bar = () => tree().find((e) => e.props.role === "alertdialog");
    const click = (e: VNode<Props>) => (e.props.onClick as () => void)();
    return { a, c, plus, bar, click, buttons: () => elements(bar()).filter((e) => e.type === "button") };
  }

  it("starts a new conversation at once while the visitor has written nothing", () => {
    const { c, plus, bar, click } = app([]);
    click(plus());
    expect(c.newConversation).toHaveBeenCalledTimes(1);
    expect(bar()).toBeUndefined();
  });

  it("asks first once the visitor has written: Cancel or Escape keep the conversation, the OK button starts a new one", () => {
    const { a, c, plus, bar, click, buttons } = app([answer({ key: "u1", role: "user", text: "Hello" }), answer()]);
    expect(plus().props.type).toBe("button");
    click(plus());
    expect(c.newConversation).not.toHaveBeenCalled();
    expect(bar()!.props["aria-label"]).toBe(t.newConversationConfirm);
    expect(buttons().map((b) => b.props.children)).toEqual([t.newConversation, t.cancel]);
    click(buttons()[1]!);
    expect(bar()).toBeUndefined();

    click(plus());
    const stopPropagation = vi.fn();
    a.onKeyDown({ key: "Escape", stopPropagation } as unknown as KeyboardEvent);
    expect(bar()).toBeUndefined();
    expect(c.setOpen).not.toHaveBeenCalled();
    a.onKeyDown({ key: "Escape", stopPropagation } as unknown as KeyboardEvent);
    expect(c.setOpen).toHaveBeenCalledWith(false);

    click(plus());
    click(buttons()[0]!);
    expect(c.newConversation).toHaveBeenCalledTimes(1);
    expect(bar()).toBeUndefined();
  });
});

describe("starter questions", () => {
  const questions = ["Where is my order?", "Do you ship to Spain?"];
  const config = { id: "asst", headerText: "Shop", welcomeMessage: "Hi!", primaryColor: "#2563eb", position: "bottom-right", size: "medium", showSources: false, allowAttachments: false, starterQuestions: questions } as State["config"];
  function app(state: Partial<State> = {}, locale = "en") {
    const full = { config, hidden: false, open: true, dark: false, locale, messages: [], busy: false, remaining: null, notice: null, attachments: [], draft: "", verified: false, list: null, status: null, shown: null, ...state } as State;
    const c = { state: full, send: vi.fn(async () => {}) } as unknown as Controller;
    const a = new App({ c, root: {} as ShadowRoot, host: {} as HTMLElement });
    const tree = elements(a.render(a.props));
    const group = tree.find((e) => e.props.role === "group");
    return { c, a, group, chips: elements(group?.props.children) };
  }

  it("are buttons under the welcome message in a named group, before the first message", () => {
    const { group, chips } = app();
    expect(group!.props["aria-label"]).toBe(t.suggested);
    expect(chips.map((b) => [b.type, b.props.type, b.props.children])).toEqual(questions.map((q) => ["button", "button", q]));
  });

  it("send their question as the visitor's message, then give focus to the message box", () => {
    const { c, a, chips } = app();
    const focus = vi.fn();
    (a.input as { current: unknown }).current = { focus };
    (chips[1]!.props.onClick as () => void)();
    expect(c.send).toHaveBeenCalledWith(questions[1]);
    expect(focus).toHaveBeenCalled();
  });

  it("are gone once the conversation has a message, while the input is blocked, and when there are none", () => {
    expect(app({ messages: [answer({ key: "u1", role: "user", text: "Hello" })] }).group).toBeUndefined();
    expect(app({ notice: { text: t.dailyLimitReached, blocking: true } }).group).toBeUndefined();
    expect(app({ config: { ...config!, starterQuestions: [] } }).group).toBeUndefined();
    expect(app({ config: { ...config!, starterQuestions: undefined } }).group).toBeUndefined();
  });

  it("are named in the panel's language", () => {
    expect(app({}, "ar").group!.props["aria-label"]).toBe(widgetStrings.ar.suggested);
  });
});
