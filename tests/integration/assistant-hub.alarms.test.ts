import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { createIdentitySecret } from "./identity-helpers";
import { widgetAssistant } from "./widget-helpers";

/** The hub's storage alarm and the grace's end it should be armed for. */
const alarmState = (hub: DurableObjectStub) =>
  runInDurableObject(hub, async (_i, state) => {
    const [row] = state.storage.sql.exec("SELECT value FROM meta WHERE key = 'identity_grace_end'").toArray();
    return { alarm: await state.storage.getAlarm(), graceEnd: row ? Number(row.value) : null };
  });

describe("the assistant's named alarms", () => {
  it("an alarm that fires before the grace's end keeps the grace's end scheduled", async () => {
    const { token, assistant } = await widgetAssistant();
    await createIdentitySecret(token, assistant._id);
    await createIdentitySecret(token, assistant._id, 1);
    const hub = getAssistantHub(env, assistant._id);
    const before = await alarmState(hub);
    expect(before.graceEnd).not.toBeNull();
    expect(before.alarm).toBe(before.graceEnd);
    // The alarm comes while this clock still reads before the grace's end (the scheduler runs
    // the earliest job then): the grace has not ended, and its end must stay scheduled.
    expect(await runDurableObjectAlarm(hub)).toBe(true);
    const after = await alarmState(hub);
    expect(after.graceEnd).toBe(before.graceEnd);
    expect(after.alarm).toBe(before.graceEnd);
  });

  it("an object woken without its name (an alarm after eviction, an id from a string) still runs its jobs", async () => {
    const { token, assistant } = await widgetAssistant();
    await createIdentitySecret(token, assistant._id);
    await createIdentitySecret(token, assistant._id, 1);
    const named = getAssistantHub(env, assistant._id);
    // The instance goes away (eviction); the next one is reached by its bare id, as a local alarm after a restart is.
    await runInDurableObject(named, (_i, state) => state.abort("evicted")).catch(() => undefined);
    const bare = env.ASSISTANT_HUB.get(env.ASSISTANT_HUB.idFromString(named.id.toString()));
    await runInDurableObject(bare, (_i, state) => {
      state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'identity_grace_end'", String(Date.now() - 1000));
    });
    expect(await runDurableObjectAlarm(bare)).toBe(true);
    const after = await runInDurableObject(bare, (_i, state) => state.storage.sql.exec("SELECT value FROM meta WHERE key = 'identity_grace_end'").toArray().length);
    expect(after).toBe(0);
  });
});
