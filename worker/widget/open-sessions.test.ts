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
  it("registers once, survives a new instance, and unregisters", async () => {
    const storage = memoryStorage();
    const sessions = new OpenSessions(storage);
    await sessions.register("s1", 1);
    await sessions.register("s1", 2);
    await sessions.register("s2", 3);
    expect(storage.writes).toBe(2);
    const again = new OpenSessions(storage);
    expect((await again.all()).sort()).toEqual(["s1", "s2"]);
    await again.unregister("s1");
    expect([...storage.data.keys()]).toEqual([`${openSessionPrefix}s2`]);
  });

  it("forgets the oldest registration past its bound", async () => {
    const storage = memoryStorage();
    const sessions = new OpenSessions(storage, 2);
    await sessions.register("a", 1);
    await sessions.register("b", 2);
    await sessions.register("c", 3);
    expect((await sessions.all()).sort()).toEqual(["b", "c"]);
    expect(storage.data.size).toBe(2);
  });
});
