import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiKeyResponse, auditResponse, type AuditEntry } from "../../contract";
import { pruneAudit } from "../../worker/services/team/list-audit";
import { call, json, registerUser } from "./helpers";
import { createAssistant, testServiceContext } from "./public-assistants-helpers";
import { joinAs, teamCall } from "./team-helpers";

const secretOf = (schema: z.ZodType<{ [k: string]: unknown }>, key: string) => async (res: Response) => {
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return String((await json(res, schema))[key]);
};

describe("the audit log of an assistant's settings, keys and exports", () => {
  it("records every change of who may do what and every export, by the admin who did it, and never a secret", async () => {
    const owner = await registerUser();
    const admin = await joinAs(owner, "admin");
    const a = await createAssistant(owner.token, { name: "Audited" });
    const path = `/api/public-assistants/${a._id}`;
    const as = (init: Parameters<typeof call>[1]) => ({ token: admin.token, ...init });

    const secretKey = await secretOf(z.object({ key: z.string() }), "key")(await call(`${path}/secret-keys`, as({ json: { name: "Server" } })));
    const keyId = (await json(await call(`${path}/secret-keys`, as({})), z.object({ secretKeys: z.array(z.object({ id: z.string() })) }))).secretKeys[0]!.id;
    expect((await call(`${path}/secret-keys/${keyId}`, as({ method: "DELETE" }))).status).toBe(204);
    const webhook = await call(`${path}/webhooks`, as({ json: { url: "https://hooks.example.com/in?token=hidden-token", events: ["lead.created"] } }));
    const { webhook: hook, secret: webhookSecret } = await json(webhook, z.object({ webhook: z.object({ id: z.string() }), secret: z.string() }));
    const rotated = await secretOf(z.object({ secret: z.string() }), "secret")(await call(`${path}/webhooks/${hook.id}/rotate-secret`, as({ method: "POST" })));
    expect((await call(`${path}/webhooks/${hook.id}`, as({ method: "DELETE" }))).status).toBe(204);
    const identity = await secretOf(z.object({ secret: z.string() }), "secret")(await call(`${path}/identity-secret`, as({ json: {} })));
    const identity2 = await secretOf(z.object({ secret: z.string() }), "secret")(await call(`${path}/identity-secret`, as({ json: {} })));
    expect((await call(`${path}/identity-secret/previous`, as({ method: "DELETE" }))).status).toBe(200);
    const regenerated = await json(await call(`${path}/regenerate-key`, as({ method: "POST" })), apiKeyResponse);
    expect((await call(path, as({ method: "PUT", json: { allowedOrigins: ["https://shop.example.com"] } }))).status).toBe(200);
    expect((await call(path, as({ method: "PUT", json: { config: { retentionDays: 90 } } }))).status).toBe(200);
    // A settings save that changes neither records nothing.
    expect((await call(path, as({ method: "PUT", json: { name: "Audited again" } }))).status).toBe(200);
    expect((await call(`${path}/chats/export`, as({}))).status).toBe(200);
    expect((await call(`${path}/leads/export`, as({}))).status).toBe(200);
    expect((await call(path, as({ method: "DELETE" }))).status).toBe(204);

    const res = await teamCall("/api/team/audit", { token: owner.token });
    const text = await res.clone().text();
    const { entries } = await json(res, auditResponse);
    const about = entries.filter((e) => e.assistant?.id === a._id);
    expect(about.map((e) => e.action).reverse()).toEqual([
      "assistant.created",
      "secret_key.created",
      "secret_key.revoked",
      "webhook.created",
      "webhook.secret_rotated",
      "webhook.deleted",
      "identity_secret.created",
      "identity_secret.created",
      "identity_secret.revoked",
      "api_key.regenerated",
      "assistant.access_changed",
      "assistant.retention_changed",
      "chats.exported",
      "leads.exported",
      "assistant.deleted",
    ]);
    const by = (action: string) => about.find((e) => e.action === action)!;
    expect(about.filter((e) => e.action !== "assistant.created").every((e) => e.actor?.userId === admin.user.id)).toBe(true);
    expect(by("secret_key.revoked").target).toMatch(/^Server \(tala_sk_/);
    expect(by("webhook.deleted").target).toBe("https://hooks.example.com/in");
    expect(by("assistant.access_changed").details).toMatchObject({ fromCount: 0, toCount: 1, to: "https://shop.example.com" });
    expect(by("assistant.retention_changed").details).toMatchObject({ fromDays: null, toDays: 90 });
    for (const secret of [secretKey, webhookSecret, rotated, identity, identity2, regenerated.apiKey, "hidden-token"]) expect(text).not.toContain(secret);
    const stored = JSON.stringify((await env.DB.prepare("SELECT * FROM audit_log WHERE workspace_id = ?").bind(owner.user.id).all()).results);
    for (const secret of [secretKey, webhookSecret, rotated, identity, identity2, regenerated.apiKey, "hidden-token"]) expect(stored).not.toContain(secret);
  });

  it("keeps a year: the daily pass deletes older entries only", async () => {
    const owner = await registerUser();
    await createAssistant(owner.token, { name: "Old" });
    const now = Date.now();
    await env.DB.prepare("UPDATE audit_log SET at = ? WHERE workspace_id = ?").bind(now - 366 * 24 * 3600 * 1000, owner.user.id).run();
    await createAssistant(owner.token, { name: "New" });
    expect(await pruneAudit({ ctx: testServiceContext(), input: { now } })).toBeGreaterThanOrEqual(1);
    const left = (await env.DB.prepare("SELECT assistant_name FROM audit_log WHERE workspace_id = ?").bind(owner.user.id).all<{ assistant_name: string }>()).results;
    expect(left.map((r) => r.assistant_name)).toEqual(["New"]);
    const shown: AuditEntry[] = (await json(await teamCall("/api/team/audit", { token: owner.token }), auditResponse)).entries;
    expect(shown.map((e) => e.assistant?.name)).toEqual(["New"]);
  });
});
