import { describe, expect, it } from "vitest";
import { tabsForRole } from "./tabs";

describe("the assistant page's tabs by role", () => {
  it("gives owners and admins every tab, Knowledge first shown", () => {
    for (const role of ["owner", "admin"] as const) {
      const { keys, fallback } = tabsForRole(role);
      expect(keys).toEqual(["playground", "knowledge", "settings", "code", "inbox", "history", "leads", "insights", "webhooks"]);
      expect(fallback).toBe("knowledge");
    }
  });

  it("gives agents the Inbox, History, Leads and curated answers (Knowledge), no Settings, Insights, keys or webhooks", () => {
    const { keys, fallback } = tabsForRole("agent");
    expect(keys).toEqual(["knowledge", "inbox", "history", "leads"]);
    expect(fallback).toBe("inbox");
  });

  it("gives viewers History, Leads and Insights, landing on History", () => {
    const { keys, fallback } = tabsForRole("viewer");
    expect(keys).toEqual(["history", "leads", "insights"]);
    expect(fallback).toBe("history");
  });
});
