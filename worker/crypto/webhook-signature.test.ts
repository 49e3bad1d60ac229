import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { webhookLimits as L } from "../../contract";
import { generateWebhookSecret, signWebhook, verifyWebhook, webhookSecretHint } from "./webhook-signature";

const body = JSON.stringify({ id: "evt_1", type: "lead.created", data: { name: "Amina" } });

describe("webhook signatures", () => {
  it("secrets are whsec_ and 32 random bytes; the hint shows four characters", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(webhookSecretHint(secret)).toBe(`${secret.slice(0, 10)}…`);
  });

  it("signs t=<seconds>,v1=<hex HMAC-SHA256(secret, t.body)>, as node:crypto computes it", async () => {
    const secret = generateWebhookSecret();
    const header = await signWebhook(secret, body, 1_760_000_000.9);
    const expected = createHmac("sha256", secret).update(`1760000000.${body}`).digest("hex");
    expect(header).toBe(`t=1760000000,v1=${expected}`);
  });

  it("verifies within the tolerance only, with the right secret and the exact body", async () => {
    const secret = generateWebhookSecret();
    const t = 1_760_000_000;
    const header = await signWebhook(secret, body, t);
    expect(await verifyWebhook(secret, body, header, t + L.signatureToleranceSeconds)).toBe(true);
    expect(await verifyWebhook(secret, body, header, t - L.signatureToleranceSeconds)).toBe(true);
    expect(await verifyWebhook(secret, body, header, t + L.signatureToleranceSeconds + 1)).toBe(false);
    expect(await verifyWebhook(generateWebhookSecret(), body, header, t)).toBe(false);
    expect(await verifyWebhook(secret, `${body} `, header, t)).toBe(false);
    // One hex digit changed (to another digit: a "0" replaced by "0" would be the same signature).
    expect(await verifyWebhook(secret, body, header.replace(/v1=(.)/, (_m, d: string) => `v1=${d === "0" ? "1" : "0"}`), t)).toBe(false);
    expect(await verifyWebhook(secret, body, `v1=${header.split("v1=")[1]}`, t)).toBe(false);
    expect(await verifyWebhook(secret, body, "", t)).toBe(false);
    // Another scheme's value next to v1 is ignored.
    expect(await verifyWebhook(secret, body, `${header},v0=abc`, t)).toBe(true);
  });
});
