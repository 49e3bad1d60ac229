import { publicAssistantResponse, type PublicAssistant } from "../../../contract";

/** A saved public assistant for the dashboard's unit tests (checked against the contract), with `changes` over it. */
export function testAssistant(changes: Partial<PublicAssistant> = {}): PublicAssistant {
  return publicAssistantResponse.parse({
    assistant: {
      _id: "pa_1",
      name: "Docs bot",
      description: "",
      isActive: true,
      apiKey: "tala_pk_abcd…wxyz",
      config: {
        maxMessagesPerSession: 25,
        dailyLimit: 500,
        allowAttachments: true,
        monthlyBudget: null,
        budgetAction: "pause",
        botDefence: "auto",
        visitorLimitScope: "session",
        customization: { primaryColor: "#FF0000", headerText: "Help", welcomeMessage: "Hi!" },
      },
      integration: { widgetPosition: "top-left", widgetSize: "large" },
      instructions: "Be brief.",
      allowedOrigins: [],
      showSources: false,
      files: [],
      stats: { totalSessions: 0 },
      createdAt: 1,
      updatedAt: 2,
      ...changes,
    },
  }).assistant;
}
