import { describe, expect, it } from "vitest";
import { OpenSessions, openSessionPrefix, type OpenSessionsStorage } from "./open-sessions";

function memoryStorage(): OpenSessionsStorage & { data: Map<string, unknown>; writes: number } {
  const data = new Map<string, unknown>();
  const storage = {
    data,
    writes: 0,
    get: async <T>(key: string) => data.get(key) as T | undefined,
    put: async <T>(key: string, value: T) => {
      storage.writes += 1;
      data.set(key, value);
    },
    delete: async (key: string) => data.delete(key),
    list: async <T>({ prefix }: { prefix: string }) => new Map([...data].filter(([k]) => k.startsWith(prefix)) as [string, T][]),
  };
  return storage;
}

describe("OpenSessions", () => {
  it("registers with a new stamp each time, survives a new instance, and unregisters", async () => {
    const storage = memoryStorage();
    const sessions = new OpenSessions(storage);
    const first = await sessions.register("s1", 1);
    const again = await sessions.register("s1", 1);
    expect(again).toBeGreaterThan(first as number);
    await sessions.register("s2", 3);
    const reloaded = new OpenSessions(storage);
    expect((await reloaded.all()).sort()).toEqual(["s1", "s2"]);
    // Stamps keep increasing across instances (a conditional unregister must never match a new one).
    expect(await reloaded.register("s3", 0)).toBeGreaterThan(again as number);
    await reloaded.unregister("s1");
    expect([...storage.data.keys()].sort()).toEqual([`${openSessionPrefix}s2`, `${openSessionPrefix}s3`]);
  });

  it("keeps a session that registered again when an older unregister lands (close racing a new tab)", async () => {
    const sessions = new OpenSessions(memoryStorage());
    const old = (await sessions.register("s1", 1)) as number;
    await sessions.register("s1", 2);
    await sessions.unregister("s1", old);
    expect(await sessions.all()).toEqual(["s1"]);
  });

  it("refuses a new session past its bound and never forgets a live one", async () => {
    const storage = memoryStorage();
    const sessions = new OpenSessions(storage, 2);
    await sessions.register("a", 1);
    await sessions.register("b", 2);
    expect(await sessions.register("c", 3)).toBe("full");
    expect(typeof (await sessions.register("a", 4))).toBe("number");
    expect((await sessions.all()).sort()).toEqual(["a", "b"]);
    expect(storage.data.size).toBe(2);
    expect((await sessions.entries()).map(([id]) => id)).toEqual(["b", "a"]);
  });
});
