import { describe, expect, it } from "vitest";
import { assistantStorageMigrations } from "../assistant/storage-migrations";
import { roomStorageMigrations } from "../chat/room-storage-migrations";
import { pendingStorageMigrations, type StorageMigration } from "./storage-migrations";

/** Every Durable Object's own schema list, checked by the one runner's rules. */
describe.each<[string, readonly StorageMigration[]]>([
  ["chat room", roomStorageMigrations],
  ["assistant", assistantStorageMigrations],
])("%s storage migrations", (label, migrations) => {
  const pending = (applied: readonly string[]) => pendingStorageMigrations(applied, migrations, label);

  it("runs what has not been applied, in order", () => {
    expect(pending([])).toEqual(migrations);
    expect(pending(migrations.map((m) => m.id))).toEqual([]);
    expect(pending(migrations.slice(0, 1).map((m) => m.id))).toEqual(migrations.slice(1));
  });

  it("refuses a history that was rewritten", () => {
    expect(() => pending(["0001_renamed"])).toThrow(/does not match/);
    expect(() => pending([...migrations.map((m) => m.id), "9999_unknown"])).toThrow(/does not match/);
  });

  it("has unique ids", () => {
    const ids = migrations.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
