import { describe, expect, it } from "vitest";
import { guestStorageMigrations, pendingMigrations } from "./guest-storage-migrations";

describe("guest storage migrations", () => {
  it("runs what has not been applied, in order", () => {
    expect(pendingMigrations([])).toEqual(guestStorageMigrations);
    expect(pendingMigrations(guestStorageMigrations.map((m) => m.id))).toEqual([]);
  });

  it("refuses a history that was rewritten", () => {
    expect(() => pendingMigrations(["0001_renamed"])).toThrow(/does not match/);
    expect(() => pendingMigrations([...guestStorageMigrations.map((m) => m.id), "9999_unknown"])).toThrow(/does not match/);
  });
});
