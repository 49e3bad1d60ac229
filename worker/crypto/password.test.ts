import { describe, expect, it } from "vitest";
import { auth } from "../../contract";
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from "./password";

describe("password hashing", () => {
  it("stores the algorithm, work factor, salt and hash", async () => {
    const stored = await hashPassword("correct horse battery");
    const [algorithm, iterations, salt, hash] = stored.split("$");
    expect(algorithm).toBe("pbkdf2-sha256");
    expect(Number(iterations)).toBe(auth.passwordKdfIterations);
    expect(Buffer.from(salt!, "base64")).toHaveLength(16);
    expect(Buffer.from(hash!, "base64")).toHaveLength(32);
  });

  it("verifies the right password and rejects a wrong one", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterz", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts every hash differently", async () => {
    const [a, b] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(a).not.toBe(b);
  });

  it("reads the work factor from the stored string, so old hashes keep verifying", async () => {
    const old = await hashPassword("legacy password", 1000);
    expect(old.split("$")[1]).toBe("1000");
    expect(await verifyPassword("legacy password", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("fresh password"))).toBe(false);
  });

  it("never matches a malformed or hostile stored value", async () => {
    const good = await hashPassword("pw-123456");
    const [, , salt, hash] = good.split("$");
    for (const stored of [
      "",
      "plaintext",
      `bcrypt$100000$${salt}$${hash}`,
      `pbkdf2-sha256$0$${salt}$${hash}`,
      `pbkdf2-sha256$999999999$${salt}$${hash}`,
      `pbkdf2-sha256$100000$%%%$${hash}`,
      `pbkdf2-sha256$100000$${salt}$`,
    ]) {
      expect(await verifyPassword("pw-123456", stored)).toBe(false);
      expect(needsRehash(stored)).toBe(true);
    }
  });

  it("burns a KDF run for unknown accounts and always answers false", async () => {
    expect(await burnPasswordCheck("tala-timing-equaliser")).toBe(false);
  });
});
