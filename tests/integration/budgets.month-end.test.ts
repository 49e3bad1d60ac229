import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { monthKey } from "../../worker/budgets/budget-math";
import { getAssistantHub, getUserRoom } from "../../worker/durable-objects/stubs";
import { ownerWithAssistants } from "./budgets-helpers";
import { sendOverSse, sseFrames, startSession } from "./widget-helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the report to the owner's room at the month's end", () => {
  it("reports a message counted in the month's last second for that month, even when its turn ends in the next", async () => {
    const owner = await ownerWithAssistants([{}]);
    const { assistant, key } = owner.assistants[0]!;
    const hub = getAssistantHub(env, assistant._id);
    const lastSecond = Date.UTC(2030, 0, 31, 23, 59, 59, 500);
    const nextMonth = Date.UTC(2030, 1, 1, 0, 0, 1);
    let clock = lastSecond;
    vi.spyOn(Date, "now").mockImplementation(() => clock);
    const session = await startSession(key);
    // The message is counted in January's last second; its retrieval (which reads the vector
    // binding once the counters moved) takes the clock into February.
    await runInDurableObject(hub, (instance) => {
      const real = (instance as unknown as { env: object }).env;
      (instance as unknown as { env: object }).env = new Proxy(real, {
        get(target, prop) {
          if (prop === "VECTORIZE") clock = nextMonth;
          return Reflect.get(target, prop) as unknown;
        },
      });
    });
    const res = await sendOverSse(key, session.sessionId, { content: "question [[tokens:2]]" });
    expect(res.status).toBe(200);
    await sseFrames(res);
    const used = await runInDurableObject(hub, (_i, state) =>
      Number(state.storage.sql.exec("SELECT coalesce(sum(used), 0) AS n FROM budget_months WHERE month = ?", monthKey(lastSecond)).one().n),
    );
    expect(used).toBe(1);
    await runDurableObjectAlarm(hub);
    const reported = await runInDurableObject(getUserRoom(env, owner.user.id), (_i, state) =>
      state.storage.sql.exec("SELECT month, used FROM owner_budget_usage WHERE assistant_id = ?", assistant._id).toArray(),
    );
    expect(reported).toContainEqual({ month: monthKey(lastSecond), used: 1 });
  });
});
