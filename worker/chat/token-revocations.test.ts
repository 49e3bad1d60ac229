import { describe, expect, it } from "vitest";
import { maxRevokedTokens, revokedTokensKey, TokenRevocations, type RevocationStorage } from "./token-revocations";

function memoryStorage(): RevocationStorage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async <T>(key: string) => data.get(key) as T | undefined,
    put: async <T>(key: string, value: T) => {
      data.set(key, value);
    },
  };
}

describe("TokenRevocations", () => {
  it("remembers revoked tokens across instances (the room woke up again)", async () => {
    const storage = memoryStorage();
    await new TokenRevocations(storage).add([{ id: "t1", expiresAt: 2_000 }], 1_000);
    const again = new TokenRevocations(storage);
    expect(await again.isRevoked("t1", 1_500)).toBe(true);
    expect(await again.isRevoked("t2", 1_500)).toBe(false);
    expect(await again.isRevoked(undefined, 1_500)).toBe(false);
  });

  it("forgets a token once it would have expired anyway", async () => {
    const storage = memoryStorage();
    const revocations = new TokenRevocations(storage);
    await revocations.add([{ id: "old", expiresAt: 1_200 }, { id: "new", expiresAt: 5_000 }], 1_000);
    expect(await revocations.isRevoked("old", 1_300)).toBe(false);
    await revocations.add([], 1_300);
    expect(storage.data.get(revokedTokensKey)).toEqual([["new", 5_000]]);
  });

  it("keeps at most maxRevokedTokens, dropping those that expire soonest", async () => {
    const storage = memoryStorage();
    const revocations = new TokenRevocations(storage);
    const tokens = Array.from({ length: maxRevokedTokens + 5 }, (_, i) => ({ id: `t${i}`, expiresAt: 10_000 + i }));
    await revocations.add(tokens, 0);
    expect((storage.data.get(revokedTokensKey) as unknown[]).length).toBe(maxRevokedTokens);
    expect(await revocations.isRevoked("t0", 0)).toBe(false);
    expect(await revocations.isRevoked(`t${maxRevokedTokens + 4}`, 0)).toBe(true);
  });
});
