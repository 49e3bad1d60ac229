import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { widgetSessionResponse } from "../../contract";
import { hashApiKey } from "../../worker/crypto/api-key";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json } from "./helpers";
import { hubRows } from "./public-assistants-helpers";
import { widgetAssistant, widgetCall } from "./widget-helpers";

/**
 * The assistant's own object's copy of the assistant (assistant/assistant-copy.ts): one pending
 * marker per owner write, trusted only once none is left, and the read after the deadlines
 * stores what D1 says.
 */

async function setup() {
  const { assistant, key, token } = await widgetAssistant({}, { upload: false });
  const assistantId = assistant._id;
  const { sessionId } = await json(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetSessionResponse);
  const hub = getAssistantHub(env, assistantId);
  const keyHash = await hashApiKey(key);
  const turn = async () => (await hub.beginTurn({ keyHash, origin: "", sessionId, ip: "203.0.113.77", message: { content: "hi", files: [] } })).outcome;
  return { assistantId, hub, turn, token };
}

/** A key hash no assistant has (the column is unique). */
const otherHash = () => crypto.randomUUID().replaceAll("-", "").repeat(2);
const d1 = (sql: string, ...binds: unknown[]) => env.DB.prepare(sql).bind(...binds).run();
const updatedAt = async (assistantId: string) =>
  (await env.DB.prepare("SELECT updated_at AS t FROM public_assistants WHERE id = ?1").bind(assistantId).first<{ t: number }>())!.t;

/** Every pending marker's deadline passes (as if `unsettledMs` had gone by). */
const expireMarkers = (assistantId: string) =>
  runInDurableObject(getAssistantHub(env, assistantId), (_i, state) => {
    state.storage.sql.exec("UPDATE config_pending SET until = ?", Date.now() - 1);
  });

describe("the assistant's copy in its own object", () => {
  it("two overlapping owner writes: the first one's refresh does not settle the second, whose lost refresh leaves the revoked key refused", async () => {
    const { assistantId, hub, turn } = await setup();
    expect(await turn()).toBe("admitted");
    const a = await hub.configChanging(); // owner request A (a rename)
    const b = await hub.configChanging(); // owner request B (a key regeneration)
    expect(a).not.toBe(b);
    await d1("UPDATE public_assistants SET name = 'renamed', updated_at = updated_at + 1 WHERE id = ?1", assistantId);
    await hub.configChanged({ token: a }); // A's refresh reads D1 before B's write
    await d1("UPDATE public_assistants SET api_key_hash = ?1, updated_at = updated_at + 1 WHERE id = ?2", otherHash(), assistantId);
    // B's refresh is lost: its marker stays, so every use re-reads D1.
    expect(await hubRows(assistantId, "SELECT token FROM config_pending")).toEqual([{ token: b }]);
    expect(await turn()).toBe("denied");
    expect(await turn()).toBe("denied");
    // B's deadline passes: the next read (started after it) settles the copy, with B's key hash.
    await expireMarkers(assistantId);
    expect(await turn()).toBe("denied");
    expect(await hubRows(assistantId, "SELECT token FROM config_pending")).toEqual([]);
    expect(await turn()).toBe("denied");
  });

  it("a refresh removes only its own marker, and the copy is trusted again once none is left", async () => {
    const { assistantId, hub, turn } = await setup();
    const a = await hub.configChanging();
    const b = await hub.configChanging();
    await hub.configChanged({ token: b });
    expect((await hubRows(assistantId, "SELECT token FROM config_pending")).map((r) => r.token)).toEqual([a]);
    await hub.configChanged({ token: a });
    expect(await hubRows(assistantId, "SELECT token FROM config_pending")).toEqual([]);
    // Trusted: a change behind the services' back (no marker) is not seen.
    await d1("UPDATE public_assistants SET api_key_hash = ?1 WHERE id = ?2", otherHash(), assistantId);
    expect(await turn()).toBe("admitted");
  });

  it("a regeneration stamped older than the copy (skewed clock) with a lost refresh: the read after the deadline stores what D1 says", async () => {
    const { assistantId, hub, turn } = await setup();
    expect(await turn()).toBe("admitted");
    const stamp = await updatedAt(assistantId);
    await hub.configChanging();
    const revoked = otherHash();
    await d1("UPDATE public_assistants SET api_key_hash = ?1, updated_at = ?2 WHERE id = ?3", revoked, stamp - 5, assistantId);
    expect(await turn()).toBe("denied"); // inside the window: D1 re-read
    await expireMarkers(assistantId);
    expect(await turn()).toBe("denied");
    expect(await turn()).toBe("denied"); // settled with D1's row, not the newer-stamped stale copy
    expect(await hubRows(assistantId, "SELECT key_hash FROM assistant_copy")).toEqual([{ key_hash: revoked }]);
  });

  it("a read inside the window never puts back an older copy than a refresh stored", async () => {
    const { assistantId, hub, turn } = await setup();
    const a = await hub.configChanging();
    const b = await hub.configChanging();
    const regenerated = otherHash();
    await d1("UPDATE public_assistants SET api_key_hash = ?1, updated_at = updated_at + 1 WHERE id = ?2", regenerated, assistantId);
    await hub.configChanged({ token: b });
    expect(await turn()).toBe("denied");
    await hub.configChanged({ token: a });
    expect(await turn()).toBe("denied");
    expect(await hubRows(assistantId, "SELECT key_hash FROM assistant_copy")).toEqual([{ key_hash: regenerated }]);
  });

  it("every owner write stamps a strictly increasing updatedAt, even behind a clock that ran ahead", async () => {
    const { assistantId, token } = await setup();
    const ahead = Date.now() + 10 * 60_000;
    await d1("UPDATE public_assistants SET updated_at = ?1 WHERE id = ?2", ahead, assistantId);
    expect((await call(`/api/public-assistants/${assistantId}/regenerate-key`, { method: "POST", token })).status).toBe(200);
    expect(await updatedAt(assistantId)).toBe(ahead + 1);
    expect((await call(`/api/public-assistants/${assistantId}`, { method: "PUT", token, json: { name: "Renamed" } })).status).toBe(200);
    expect(await updatedAt(assistantId)).toBe(ahead + 2);
    // The copy followed both writes (settled, no marker left).
    expect(await hubRows(assistantId, "SELECT updated_at FROM assistant_copy")).toEqual([{ updated_at: ahead + 2 }]);
    expect(await hubRows(assistantId, "SELECT token FROM config_pending")).toEqual([]);
  });
});
