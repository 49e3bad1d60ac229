import { describe, expect, it } from "vitest";
import { generateApiKey, isApiKeyShaped, maskApiKey } from "./api-key";
import { deriveSecretBoxKey, openSecret, sealSecret } from "./secret-box";

describe("secret box (AES-GCM at rest)", () => {
  it("opens what it sealed, only with the same secret and context", async () => {
    const key = await deriveSecretBoxKey("a long enough server secret", "test");
    const sealed = await sealSecret(key, "tala_pk_secret", "row-1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("secret");
    expect(await openSecret(key, sealed, "row-1")).toBe("tala_pk_secret");
    expect(await openSecret(key, sealed, "row-2")).toBeNull();
    expect(await openSecret(await deriveSecretBoxKey("another server secret", "test"), sealed, "row-1")).toBeNull();
    expect(await openSecret(await deriveSecretBoxKey("a long enough server secret", "other"), sealed, "row-1")).toBeNull();
  });

  it("seals the same text differently each time and refuses tampered or malformed values", async () => {
    const key = await deriveSecretBoxKey("a long enough server secret", "test");
    const [a, b] = [await sealSecret(key, "same", "c"), await sealSecret(key, "same", "c")];
    expect(a).not.toBe(b);
    const [version, iv, body] = a.split(".");
    const flipped = `${version}.${iv}.${body!.slice(0, -2)}${body!.endsWith("A") ? "B" : "A"}${body!.slice(-1)}`;
    for (const bad of [flipped, "", "v1", "v2.x.y", `${a}.extra`, "v1.%%%.%%%"]) expect(await openSecret(key, bad, "c")).toBeNull();
  });
});

describe("API keys", () => {
  it("are tala_pk_ + 43 base64url characters, masked to the first and last four", () => {
    const key = generateApiKey();
    expect(isApiKeyShaped(key)).toBe(true);
    expect(generateApiKey()).not.toBe(key);
    expect(maskApiKey(key)).toBe(`tala_pk_${key.slice(8, 12)}…${key.slice(-4)}`);
    expect(isApiKeyShaped(`${key}x`)).toBe(false);
  });
});
