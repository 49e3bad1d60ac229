import { createApp } from "./app";
import { dbOf } from "./db/client";
import { applyD1Latency } from "./db/latency";
import { lastResortResponse } from "./http/last-resort";
import { handleIngestBatch } from "./queues/ingest";
import { handleWebhookBatch } from "./queues/webhooks";
import { pruneAudit } from "./services/team/list-audit";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { ChatRoom } from "./durable-objects/chat-room";
export { WidgetRoom } from "./durable-objects/widget-room";
export { AssistantHub } from "./durable-objects/assistant-hub";

const app = createApp();

export default {
  // Whatever escapes the app still answers the envelope, not the runtime's plain-text error.
  fetch: async (request, env, ctx) => {
    try {
      applyD1Latency(env); // benches only: inert unless TALA_D1_DELAY_MS is set in local mode
      return await app.fetch(request, env, ctx);
    } catch (error) {
      return lastResortResponse(request, error);
    }
  },
  // One handler per queue, by name: webhook deliveries, and the ingest queue (embeddings, crawls).
  queue: (batch, env) => (batch.queue.startsWith("tala-webhooks") ? handleWebhookBatch(batch, env) : handleIngestBatch(batch, env)),
  // The daily cron (wrangler.toml [triggers]): audit entries past their year go, in bounded batches.
  scheduled: async (_controller, env) => {
    const pruned = await pruneAudit({ ctx: { env, db: dbOf(env.DB) } });
    console.log(JSON.stringify({ event: "audit-pruned", pruned }));
  },
} satisfies ExportedHandler<import("./env").Env>;
