import { beforeEach, describe, expect, it, vi } from "vitest";
import { defaultLeadForm, type WidgetLeadForm } from "../../../contract/schemas/leads";
import { CHUNK_GLOBAL } from "../types";
import type { Controller, State, UiMessage } from "./controller";
import { App } from "./view";

/**
 * The core's one check of the lead form (view.tsx, in the conversation's slot): it asks for the
 * lead chunk (Controller.collect) only when the owner's form may be due; the chunk decides the rest.
 * The chunk is not loaded here, so what the core asks for is all that happens.
 */
const { enabled: _on, emailOwner: _mail, ...widgetForm } = defaultLeadForm;
const leadForm = (over: Partial<WidgetLeadForm> = {}): WidgetLeadForm => ({ ...widgetForm, whenAsked: false, whenUnanswered: false, ...over });
const user = (n: number): UiMessage => ({ key: `c${n}`, id: `u${n}`, role: "user", text: "Hi", files: [], status: "complete" });
const reply = (n: number, extra: Partial<UiMessage> = {}): UiMessage => ({ key: `a${n}`, id: `a${n}`, role: "assistant", text: "Hello", files: [], status: "complete", ...extra });

function asks(form: WidgetLeadForm | undefined, state: Partial<State> = {}) {
  const collect = vi.fn();
  const c = {
    state: {
      config: { id: "asst", name: "A", headerText: "Shop", welcomeMessage: "", primaryColor: "#2962FF", position: "bottom-right", size: "medium", allowAttachments: false, showSources: false, leadForm: form },
      hidden: false,
      open: true,
      dark: false,
      locale: "en",
      messages: [],
      busy: false,
      remaining: null,
      notice: null,
      attachments: [],
      draft: "",
      verified: false,
      list: null,
      status: null,
      shown: null,
      ...state,
    },
    collect,
  } as unknown as Controller;
  const app = new App({ c, root: {} as ShadowRoot, host: {} as HTMLElement });
  app.render(app.props);
  return collect.mock.calls.length > 0;
}

beforeEach(() => {
  // Another test file of this worker may have registered the chunk.
  delete (globalThis as unknown as Record<string, Record<string, unknown> | undefined>)[CHUNK_GLOBAL]?.lead;
});

describe("when the core asks for the lead chunk", () => {
  it("never when the owner's form is off (absent from the config), whatever the conversation", () => {
    expect(asks(undefined)).toBe(false);
    expect(asks(undefined, { messages: [user(1), reply(1, { offersLeadForm: true })] })).toBe(false);
  });

  it("before the first message, when the owner shows it then (optional or required), once the panel is open", () => {
    expect(asks(leadForm({ beforeFirstMessage: "optional" }))).toBe(true);
    expect(asks(leadForm({ beforeFirstMessage: "required" }))).toBe(true);
    expect(asks(leadForm({ beforeFirstMessage: "off" }))).toBe(false);
    expect(asks(leadForm({ beforeFirstMessage: "required" }), { open: false })).toBe(false);
    expect(asks(leadForm({ beforeFirstMessage: "required" }), { messages: [user(1), reply(1)] })).toBe(false);
  });

  it("after the visitor's N-th message (N from the owner; 0: never)", () => {
    const form = leadForm({ afterMessages: 2 });
    expect(asks(form, { messages: [user(1), reply(1)] })).toBe(false);
    expect(asks(form, { messages: [user(1), reply(1), user(2)] })).toBe(true);
    expect(asks(form, { messages: [user(1), reply(1), user(2), reply(2)] })).toBe(true);
    expect(asks(form, { messages: [user(1), reply(1), user(2), reply(2), user(3)] })).toBe(false);
    expect(asks(leadForm({ afterMessages: 0 }), { messages: [user(1), reply(1)] })).toBe(false);
  });

  it("under the last answer when it offers the form; not for one further up", () => {
    expect(asks(leadForm(), { messages: [user(1), reply(1, { offersLeadForm: true })] })).toBe(true);
    expect(asks(leadForm(), { messages: [user(1), reply(1, { offersLeadForm: true }), user(2), reply(2)] })).toBe(false);
    expect(asks(leadForm(), { messages: [user(1), reply(1, { offersHandoff: true })] })).toBe(false);
  });
});
