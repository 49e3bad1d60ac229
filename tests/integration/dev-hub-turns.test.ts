import { describe, expect, it } from "vitest";
import { call, callWithEnv, randomIp } from "./helpers";
import { sessionRows, startSession, widgetAssistant } from "./widget-helpers";

// POST /api/dev/hub-turns: bench/hub-throughput.mjs's hub-only turns (worker/services/dev/hub-turns.ts).
// What it does, not how fast: figures live in bench/results, never in a test.
describe("POST /api/dev/hub-turns", () => {
  it("runs real visitor turns against the assistant's hub: each question and answer saved, the counters moved", async () => {
    const { key } = await widgetAssistant({ config: { maxMessagesPerSession: 2 } });
    const ip = randomIp();
    const sessions = [{ id: (await startSession(key, { ip })).sessionId, ip }];
    const res = await call("/api/dev/hub-turns", { json: { key, sessions, question: "How do refunds work?", turns: 3, concurrency: 2 } });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { turns: number; admitted: number; refused: number; turnsPerSecond: number };
    // The session allows two messages: the third turn is refused by the hub, as a visitor's would be.
    expect(body).toMatchObject({ turns: 3, admitted: 2, refused: 1 });
    const { messages } = await sessionRows(sessions[0]!.id);
    // Two turns at once on one session: both questions, then both answers, in any interleaving.
    expect(messages.map((m) => m.role).sort()).toEqual(["assistant", "assistant", "user", "user"]);
  });

  it("refuses a key that is not the assistant's, and answers 404 outside local mode", async () => {
    const ip = randomIp();
    const body = { key: "tala_pk_not-a-real-key-000000000000000000000", sessions: [{ id: "x", ip }], question: "hi", turns: 1, concurrency: 1 };
    expect((await call("/api/dev/hub-turns", { json: body })).status).toBe(401);
    expect((await callWithEnv({ ENVIRONMENT: "production" }, "/api/dev/hub-turns", { json: body })).status).toBe(404);
  });
});
