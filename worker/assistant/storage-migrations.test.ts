import { describe, expect, it } from "vitest";
import { assistantStorageMigrations, pendingAssistantMigrations } from "./storage-migrations";

describe("assistant storage migrations", () => {
  it("runs what has not been applied, in order", () => {
    expect(pendingAssistantMigrations([])).toEqual(assistantStorageMigrations);
    expect(pendingAssistantMigrations(assistantStorageMigrations.map((m) => m.id))).toEqual([]);
  });

  it("refuses a history that was rewritten", () => {
    expect(() => pendingAssistantMigrations(["0001_renamed"])).toThrow(/does not match/);
    expect(() => pendingAssistantMigrations([...assistantStorageMigrations.map((m) => m.id), "9999_unknown"])).toThrow(/does not match/);
  });

  it("has unique ids", () => {
    const ids = assistantStorageMigrations.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
