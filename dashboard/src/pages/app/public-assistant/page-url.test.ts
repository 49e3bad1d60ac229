import { describe, expect, it } from "vitest";
import { assistantPageHref, readAssistantPageParams } from "./page-url";

const keys = ["playground", "knowledge", "history", "inbox"] as const;

describe("the assistant page's address", () => {
  it("reads the tab, the default one when absent or unknown", () => {
    expect(readAssistantPageParams("", keys, "knowledge")).toEqual({ tab: "knowledge", session: null });
    expect(readAssistantPageParams("?tab=playground", keys, "knowledge")).toEqual({ tab: "playground", session: null });
    expect(readAssistantPageParams("tab=nope", keys, "knowledge")).toEqual({ tab: "knowledge", session: null });
  });

  it("reads an open conversation on the History and Inbox tabs only", () => {
    expect(readAssistantPageParams("tab=inbox&session=s1", keys, "knowledge")).toEqual({ tab: "inbox", session: "s1" });
    expect(readAssistantPageParams("tab=history&session=s%201", keys, "knowledge")).toEqual({ tab: "history", session: "s 1" });
    expect(readAssistantPageParams("tab=history&session=", keys, "knowledge")).toEqual({ tab: "history", session: null });
    expect(readAssistantPageParams("tab=playground&session=s1", keys, "knowledge")).toEqual({ tab: "playground", session: null });
  });

  it("writes what it reads back", () => {
    expect(assistantPageHref("a/1", { tab: "knowledge" })).toBe("/app/public-assistants/a%2F1?tab=knowledge");
    const href = assistantPageHref("a1", { tab: "history", session: "s&1" });
    expect(href).toBe("/app/public-assistants/a1?tab=history&session=s%261");
    expect(readAssistantPageParams(href.split("?")[1]!, keys, "knowledge")).toEqual({ tab: "history", session: "s&1" });
  });
});
