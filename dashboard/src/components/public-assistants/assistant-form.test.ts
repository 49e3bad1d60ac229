import { describe, expect, it } from "vitest";
import { publicAssistantBody, publicAssistantDefaults } from "../../../../contract";
import { testAssistant } from "../../test/assistant-fixture";
import { checkFormValues, defaultFormValues, formFieldOf, formValuesFrom, mapFieldErrors, parseOrigins, pickerColor, tabOfFirstError, toRequestBody } from "./assistant-form";

const assistant = testAssistant({
  description: "Answers from the docs",
  isActive: false,
  allowedOrigins: ["https://a.example", "https://b.example"],
  stats: { totalSessions: 3 },
});

describe("assistant form values", () => {
  it("start from the spec's defaults for a new assistant", () => {
    const body = toRequestBody(formValuesFrom(null));
    expect(body).toMatchObject({
      name: "",
      description: "",
      isActive: true,
      config: {
        maxMessagesPerSession: 10,
        dailyLimit: 100,
        allowAttachments: false,
        // The avatar is uploaded on its own (PUT …/avatar), never sent with the form.
        customization: (({ avatarUrl: _avatar, ...rest }) => rest)(publicAssistantDefaults.config.customization),
      },
      integration: { widgetPosition: "bottom-right", widgetSize: "medium" },
      allowedOrigins: [],
    });
    expect(publicAssistantBody.safeParse(body).success).toBe(true);
    expect(formValuesFrom(undefined)).not.toBe(defaultFormValues);
  });

  it("preload everything of an assistant being edited, and send it back unchanged", () => {
    const body = toRequestBody(formValuesFrom(assistant));
    // "Talk to a person" is saved by its own section (handoff-settings.tsx): the form leaves it as stored.
    // The avatar (uploaded on its own) and the onboarding record (the server's) are not the form's either.
    const { handoff: _handoff, onboarding: _onboarding, leadForm: _leadForm, ...rest } = assistant.config;
    const { avatarUrl: _avatar, ...customization } = rest.customization;
    const config = { ...rest, customization };
    expect(body.config).not.toHaveProperty("handoff");
    expect(body).toEqual({
      name: assistant.name,
      description: assistant.description,
      isActive: false,
      config,
      integration: assistant.integration,
      instructions: "Be brief.",
      allowedOrigins: assistant.allowedOrigins,
      showSources: false,
    });
  });

  it("parse the limits as integers (bounds are the inputs' only)", () => {
    const body = toRequestBody({ ...defaultFormValues, maxMessagesPerSession: " 12.7 ", dailyLimit: "0999" });
    expect(body.config?.maxMessagesPerSession).toBe(12);
    expect(body.config?.dailyLimit).toBe(999);
    const empty = toRequestBody({ ...defaultFormValues, maxMessagesPerSession: "" });
    expect(Number.isNaN(empty.config?.maxMessagesPerSession)).toBe(true);
    expect(JSON.parse(JSON.stringify(empty)).config.maxMessagesPerSession).toBeNull();
  });

  it("send the monthly budget as a whole number, or null when empty, with the Limits tab's other choices", () => {
    const none = toRequestBody({ ...defaultFormValues, monthlyBudget: "  " });
    expect(none.config).toMatchObject({ monthlyBudget: null, budgetAction: "pause", botDefence: "auto", visitorLimitScope: "session" });
    const set = toRequestBody({ ...defaultFormValues, monthlyBudget: " 5000 ", budgetAction: "continue", botDefence: "always", visitorLimitScope: "user" });
    expect(set.config).toMatchObject({ monthlyBudget: 5000, budgetAction: "continue", botDefence: "always", visitorLimitScope: "user" });
    expect(mapFieldErrors({ "config.monthlyBudget": "out of range" })).toEqual({ errors: { monthlyBudget: "out of range" }, tab: "limits" });
    expect(mapFieldErrors({ "config.budgetAction": "bad" }).tab).toBe("limits");
  });

  it("read allowed origins one per line", () => {
    expect(parseOrigins(" https://a.example \r\n\n https://b.example\n  ")).toEqual(["https://a.example", "https://b.example"]);
    expect(parseOrigins("")).toEqual([]);
  });

  it("give the colour picker a valid #rrggbb", () => {
    expect(pickerColor("#ABCDEF")).toBe("#abcdef");
    expect(pickerColor("red")).toBe("#2962ff");
  });

  it("map the server's field paths to fields and the tab that shows them", () => {
    expect(formFieldOf("config.dailyLimit")).toBe("dailyLimit");
    expect(formFieldOf("config.customization.primaryColor")).toBe("primaryColor");
    expect(formFieldOf("integration.widgetSize")).toBe("widgetSize");
    expect(formFieldOf("allowedOrigins.2")).toBe("allowedOrigins");
    expect(mapFieldErrors({ "config.maxMessagesPerSession": "too many", name: "too long", other: "x" })).toEqual({
      errors: { maxMessagesPerSession: "too many", name: "too long" },
      tab: "limits",
    });
    expect(mapFieldErrors({ "allowedOrigins.0": "bad" }).tab).toBe("widget");
  });
});

describe("the form's own checks", () => {
  const messages = { nameRequired: "Give your assistant a name.", colorInvalid: (v: string) => `"${v}" is not a colour.` };
  it("asks for a name and refuses a colour that is not #RRGGBB, naming what was typed", () => {
    expect(checkFormValues({ ...defaultFormValues, name: "  ", primaryColor: "teal-ish" }, messages)).toEqual({
      name: "Give your assistant a name.",
      primaryColor: '"teal-ish" is not a colour.',
    });
    expect(tabOfFirstError({ primaryColor: "x" })).toBe("limits");
    expect(tabOfFirstError({ name: "x", primaryColor: "x" })).toBe("basic");
  });
  it("lets a named assistant with a real colour through", () => {
    expect(checkFormValues({ ...defaultFormValues, name: "Shop", primaryColor: " #0f766e " }, messages)).toEqual({});
  });
});
