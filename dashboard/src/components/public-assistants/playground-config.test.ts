import { describe, expect, it } from "vitest";
import { widgetConfigResponse } from "../../../../contract";
import { testAssistant } from "../../test/assistant-fixture";
import { formValuesFrom } from "./assistant-form";
import { playgroundUrl, widgetConfigDiffers, widgetConfigFromForm, widgetConfigOf } from "./playground-config";

const assistant = testAssistant();

describe("the embedded widget's config", () => {
  it("is the widget's own config of the saved assistant, as GET /api/widget/config gives it", () => {
    const config = widgetConfigOf(assistant);
    expect(widgetConfigResponse.parse({ assistant: config, limits: { maxMessagesPerSession: 1, dailyLimit: 1 } }).assistant).toEqual({
      id: "pa_1",
      name: "Docs bot",
      headerText: "Help",
      welcomeMessage: "Hi!",
      starterQuestions: [],
      primaryColor: "#FF0000",
      position: "top-left",
      size: "large",
      allowAttachments: true,
      showSources: false,
      theme: "auto",
      language: "auto",
      availabilityLine: "",
      avatarUrl: "",
      contactLine: "",
    });
  });

  it("follows the form's unsaved values, and says when they differ from the saved ones", () => {
    const values = formValuesFrom(assistant);
    expect(widgetConfigFromForm("pa_1", values)).toEqual(widgetConfigOf(assistant));
    expect(widgetConfigDiffers(widgetConfigFromForm("pa_1", values), widgetConfigOf(assistant))).toBe(false);
    for (const change of [{ headerText: "Aide" }, { primaryColor: "#00FF00" }, { welcomeMessage: "" }, { widgetPosition: "bottom-right" as const }, { widgetSize: "small" as const }, { showSources: true }]) {
      expect(widgetConfigDiffers(widgetConfigFromForm("pa_1", { ...values, ...change }), widgetConfigOf(assistant))).toBe(true);
    }
    // Starter questions: as the server would keep them (trimmed, blank and repeated ones dropped).
    const typed = { ...values, starterQuestions: [" Where is my order? ", "", "where is my order?", "Can I pay later?"] };
    expect(widgetConfigFromForm("pa_1", typed).starterQuestions).toEqual(["Where is my order?", "Can I pay later?"]);
    expect(widgetConfigDiffers(widgetConfigFromForm("pa_1", typed), widgetConfigOf(assistant))).toBe(true);
    expect(widgetConfigDiffers(widgetConfigFromForm("pa_1", { ...values, starterQuestions: ["", " "] }), widgetConfigOf(assistant))).toBe(false);
    // The privacy line is carried only when set, and the preview shows it as typed; clearing it differs too.
    const noticed = widgetConfigFromForm("pa_1", { ...values, privacyNotice: " We keep chats 30 days. ", privacyUrl: "https://shop.example/privacy" });
    expect(noticed).toMatchObject({ privacyNotice: "We keep chats 30 days.", privacyUrl: "https://shop.example/privacy" });
    expect(widgetConfigFromForm("pa_1", values)).not.toHaveProperty("privacyNotice");
    expect(widgetConfigDiffers(noticed, widgetConfigOf(assistant))).toBe(true);
    expect(widgetConfigDiffers(widgetConfigOf(assistant), noticed)).toBe(true);
    // Fields the widget does not show are not its business.
    expect(widgetConfigDiffers(widgetConfigFromForm("pa_1", { ...values, instructions: "Other", dailyLimit: "20", name: "New name" }), widgetConfigOf(assistant))).toBe(false);
  });

  it("talks to the playground endpoint under the API's base", () => {
    expect(playgroundUrl("pa 1")).toBe("/api/public-assistants/pa%201/playground");
  });
});
