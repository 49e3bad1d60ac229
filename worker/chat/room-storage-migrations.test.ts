import { describe, expect, it } from "vitest";
import { roomStorageMigrations, pendingMigrations } from "./room-storage-migrations";

describe("chat room storage migrations", () => {
  it("runs what has not been applied, in order", () => {
    expect(pendingMigrations([])).toEqual(roomStorageMigrations);
    expect(pendingMigrations(roomStorageMigrations.map((m) => m.id))).toEqual([]);
  });

  it("refuses a history that was rewritten", () => {
    expect(() => pendingMigrations(["0001_renamed"])).toThrow(/does not match/);
    expect(() => pendingMigrations([...roomStorageMigrations.map((m) => m.id), "9999_unknown"])).toThrow(/does not match/);
  });
});
