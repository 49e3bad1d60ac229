import { AppError } from "../../http/errors";
import { getAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { authorizeWidgetCall } from "../widget/authorize-widget-call";

export interface HubTurnsInput {
  /** The assistant's publishable key (and the Origin its allowlist wants, if any). */
  key: string;
  origin?: string | undefined;
  /** Open sessions of that assistant, each with the network it is seen from. */
  sessions: { id: string; ip: string }[];
  question: string;
  turns: number;
  concurrency: number;
}

export interface HubTurnsResult {
  turns: number;
  admitted: number;
  refused: number;
  wallMs: number;
  turnsPerSecond: number;
  beginTurnMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  finishTurnMs: { p50: number; p95: number; p99: number; max: number; mean: number };
}

const percentiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  const mean = sorted.length ? Math.round((sorted.reduce((x, y) => x + y, 0) / sorted.length) * 100) / 100 : 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? 0, mean };
};

/**
 * The benches' hub-only figure (bench/hub-throughput.mjs; local mode only, through /api/dev): `turns`
 * visitor turns run straight against one assistant's AssistantHub from the Worker, `concurrency` at
 * a time, each the `beginTurn` + `finishTurn` pair a real turn makes (the per-IP throttle and the
 * retrieval included, as in a real turn) with no HTTP, socket or model in between. Times are the
 * Worker's clock around each RPC (it advances with I/O, so an RPC's time is what it waited).
 */
export async function runHubTurns({ ctx, input }: { ctx: ServiceContext; input: HubTurnsInput }): Promise<HubTurnsResult> {
  if (!input.sessions.length) throw new AppError("VALIDATION_ERROR", "sessions: at least one");
  const caller = await authorizeWidgetCall({ ctx, input: { key: input.key, origin: input.origin, rule: "required" } });
  const assistantId = caller.assistant.id;
  const hub = getAssistantHub(ctx.env, assistantId);
  const begin: number[] = [];
  const finish: number[] = [];
  let admitted = 0;
  let refused = 0;
  let next = 0;
  const one = async () => {
    for (let i = next++; i < input.turns; i = next++) {
      const session = input.sessions[i % input.sessions.length]!;
      const t0 = Date.now();
      const begun = await hub.beginTurn({
        keyHash: caller.keyHash,
        origin: caller.origin,
        sessionId: session.id,
        ip: session.ip,
        message: { content: input.question, files: [] },
      });
      const t1 = Date.now();
      begin.push(t1 - t0);
      if (begun.outcome !== "admitted") {
        refused++;
        continue;
      }
      admitted++;
      await hub.finishTurn({ sessionId: session.id, messageId: crypto.randomUUID(), content: "Open 9 to 18.", sources: [], askedAt: begun.saved.timestamp });
      finish.push(Date.now() - t1);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, input.turns)) }, one));
  const wallMs = Math.max(1, Date.now() - started);
  return {
    turns: input.turns,
    admitted,
    refused,
    wallMs,
    turnsPerSecond: Math.round((admitted / wallMs) * 1000 * 10) / 10,
    beginTurnMs: percentiles(begin),
    finishTurnMs: percentiles(finish),
  };
}
