import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { widget, widgetSocketClose } from "../../contract";
import { IpMessageLeases } from "../../worker/assistant/ip-message-leases";
import type { Env } from "../../worker/env";
import { windowEnd } from "../../worker/services/rate-limit-window";
import { getAssistantHub } from "../../worker/widget/get-assistant-hub";
import { randomIp } from "./helpers";

/**
 * Hostile review of the leased per-IP message throttle (RateLimiter.consumeLeasable,
 * assistant/ip-message-leases.ts): the failure, restart, erase and clock edges of the hand-over.
 * Each hub here is an AssistantHub named by a random id (no assistant needed: only its lease table
 * is used); `now` is passed explicitly, in windows of the future, so no test waits for a window.
 */

const { limit, windowMs } = widget.throttles.message;

/** The hub's own lease counter, as beginTurn calls it (`consume(holder, ip, now)`). */
async function consumeAt(holder: string, ip: string, now: number) {
  return runInDurableObject(getAssistantHub(env, holder), (instance) =>
    (instance as unknown as { ipMessages: IpMessageLeases }).ipMessages.consume(holder, ip, now),
  );
}

/** A hub with its storage migrated (releaseIpLease migrates it), ready to hold leases. */
async function hub() {
  const id = crypto.randomUUID();
  expect(await getAssistantHub(env, id).releaseIpLease("192.0.2.1")).toBeNull();
  return id;
}

const counterOf = (ip: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`widget-messages:ip:${ip}`));

/** Start of a window well in the future, so every test has whole windows to itself. */
const futureWindow = (ahead = 10) => windowEnd(Date.now(), windowMs) + ahead * windowMs;

async function passed(results: Promise<{ allowed: boolean }>[]) {
  return (await Promise.all(results)).filter((r) => r.allowed).length;
}

describe("leased per-IP message throttle under failure, restart, erase and clock edges", () => {
  it("answers (never throws across RPC) when the recall of a lease fails, for the caller and for everyone waiting on the recall", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    expect((await consumeAt(a, ip, now)).allowed).toBe(true);
    // The holder's release now throws (its table is gone: a broken or half-deployed holder).
    await runInDurableObject(getAssistantHub(env, a), (_instance, state) => {
      state.storage.sql.exec("DROP TABLE ip_message_leases");
    });
    const counter = counterOf(ip);
    const settled = await Promise.allSettled([1, 2, 3].map(() => counter.consume(limit, 1, windowEnd(now, windowMs))));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    // The count may be away: nothing passes (never more than the limit), and the call says until when.
    for (const s of settled) expect(s.status === "fulfilled" && s.value).toMatchObject({ allowed: false, resetAt: windowEnd(now, windowMs) });
  });

  it("keeps a holder's count when the answer of its release is lost (the counter restarted during the recall) and the counter recalls again", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    for (let i = 0; i < 20; i++) expect((await consumeAt(a, ip, now)).allowed).toBe(true);
    // The counter's recall reached A, A handed its count over... and the answer never got back.
    expect(await getAssistantHub(env, a).releaseIpLease(ip)).toMatchObject({ count: 20 });
    // The counter still sees the lease (it saved nothing) and recalls again on the next call.
    const counter = counterOf(ip);
    const resetAt = windowEnd(now, windowMs);
    expect(await passed(Array.from({ length: limit }, () => counter.consume(limit, 1, resetAt)))).toBe(limit - 20);
  });

  it("keeps a holder's count when the answer of its release is lost and the holder itself asks the counter next", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    for (let i = 0; i < 20; i++) expect((await consumeAt(a, ip, now)).allowed).toBe(true);
    expect(await getAssistantHub(env, a).releaseIpLease(ip)).toMatchObject({ count: 20 });
    // The counter still sees A's lease; A, holding no running lease, asks: the counter must not start from its own count.
    let more = 0;
    for (let i = 0; i < limit; i++) if ((await consumeAt(a, ip, now)).allowed) more++;
    expect(more).toBe(limit - 20);
  });

  it("does not let a network start over in the window when the assistant holding its count is deleted", async () => {
    const [a, b, ip] = [await hub(), await hub(), randomIp()];
    const now = futureWindow();
    for (let i = 0; i < limit - 1; i++) expect((await consumeAt(a, ip, now)).allowed).toBe(true);
    await getAssistantHub(env, a).erase(widgetSocketClose.unavailable);
    let more = 0;
    for (let i = 0; i < limit; i++) if ((await consumeAt(b, ip, now)).allowed) more++;
    expect(more).toBe(1);
  });

  it("forgets the counts an erased object carried once their window is over (its alarm), so no address stays behind", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    for (let i = 0; i < 3; i++) expect((await consumeAt(a, ip, now)).allowed).toBe(true);
    await getAssistantHub(env, a).erase(widgetSocketClose.unavailable);
    const carried = await runInDurableObject(getAssistantHub(env, a), async (_instance, state) => ({ keys: [...state.storage.kv.list({ prefix: "ip-lease:" })].map(([key]) => key), alarm: await state.storage.getAlarm() }));
    expect(carried).toEqual({ keys: [`ip-lease:${ip}`], alarm: windowEnd(now, windowMs) });
    // The alarm, at the end of that window (the runtime's clock is not ours to move: the time is passed).
    const left = await runInDurableObject(getAssistantHub(env, a), (instance, state) => {
      (instance as unknown as { ipMessages: IpMessageLeases }).ipMessages.forgetCarried(windowEnd(now, windowMs));
      return [...state.storage.kv.list({ prefix: "ip-lease:" })].map(([key]) => key);
    });
    expect(left).toEqual([]);
  });

  it("counts in one place at a lease's last edge: a holder whose clock is a moment behind counts in the counter's window", async () => {
    const [a, b, ip] = [await hub(), await hub(), randomIp()];
    const start = futureWindow();
    const first = await runInDurableObject(getAssistantHub(env, a), () => null).then(() => consumeAt(a, ip, start));
    expect(first.allowed).toBe(true);
    const leaseEnd = await runInDurableObject(getAssistantHub(env, a), (_instance, state) =>
      state.storage.sql.exec<{ lease_end: number }>("SELECT lease_end FROM ip_message_leases WHERE ip = ?", ip).one().lease_end,
    );
    // B's clock is 2 ms into the window after the lease; A's is 2 ms before it (the same instant).
    let atB = 0;
    for (let i = 0; i < limit; i++) if ((await consumeAt(b, ip, leaseEnd + 2)).allowed) atB++;
    expect(atB).toBe(limit);
    let atA = 0;
    for (let i = 0; i < limit; i++) if ((await consumeAt(a, ip, leaseEnd - 2)).allowed) atA++;
    // Without a lease, A's calls reach the counter and count in its (later) window: none pass.
    expect(atA).toBe(0);
  });

  it("still counts a network's messages while its counter runs the code from before leases (a deploy under way)", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    const results = await runInDurableObject(getAssistantHub(env, a), async (_instance, state) => {
      // The counter as an object still on the previous code: `consume`, and no `consumeLeasable`
      // (asked of a real stub of another class, so the error is the runtime's own). Stubs made here, in the object.
      const real = counterOf(ip);
      const other = getAssistantHub(env, crypto.randomUUID()) as unknown as { consumeLeasable(...args: unknown[]): Promise<unknown> };
      const old = { consume: (l: number, c: number, r: number) => real.consume(l, c, r), consumeLeasable: (...args: unknown[]) => other.consumeLeasable(...args) };
      const oldEnv = { ...env, RATE_LIMITER: { idFromName: () => real.id, get: () => old } } as unknown as Env;
      const leases = new IpMessageLeases(state.storage, oldEnv);
      const out: boolean[] = [];
      for (let i = 0; i < limit + 1; i++) out.push((await leases.consume(a, ip, now)).allowed);
      return out;
    });
    expect(results.filter(Boolean)).toHaveLength(limit);
    expect(results[limit]).toBe(false);
  });

  it("scans its lease table for leases that are over once a day per object, not once per instance (woken between messages)", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    const scans = await runInDurableObject(getAssistantHub(env, a), async (_instance, state) => {
      let count = 0;
      const sql = {
        exec: (query: string, ...bindings: unknown[]) => {
          if (query.startsWith("DELETE FROM ip_message_leases WHERE") && !query.includes("ip =")) count++;
          return state.storage.sql.exec(query, ...bindings);
        },
      };
      const storage = { sql, kv: state.storage.kv } as unknown as DurableObjectStorage;
      // Three instances of the object on the same day, one message each.
      for (let i = 0; i < 3; i++) await new IpMessageLeases(storage, env as unknown as Env).consume(a, ip, now + i);
      return count;
    });
    expect(scans).toBe(1);
  });

  it("sound: a plain consume (hub code from before leases) while a lease runs recalls it and goes on from the holder's count", async () => {
    const [a, ip] = [await hub(), randomIp()];
    const now = futureWindow();
    for (let i = 0; i < 20; i++) expect((await consumeAt(a, ip, now)).allowed).toBe(true);
    const counter = counterOf(ip);
    expect(await passed(Array.from({ length: limit }, () => counter.consume(limit, 1, windowEnd(now, windowMs))))).toBe(limit - 20);
    // And the holder, recalled, counts centrally: nothing more passes.
    expect((await consumeAt(a, ip, now)).allowed).toBe(false);
  });
});
