import { createApp } from "./app";
import { applyD1Latency } from "./db/latency";
import { handleIngestBatch } from "./queues/ingest";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { ChatRoom } from "./durable-objects/chat-room";
export { WidgetRoom } from "./durable-objects/widget-room";
export { AssistantHub } from "./durable-objects/assistant-hub";

const app = createApp();

export default {
  fetch: (request, env, ctx) => {
    applyD1Latency(env); // benches only: inert unless TALA_D1_DELAY_MS is set in local mode
    return app.fetch(request, env, ctx);
  },
  queue: handleIngestBatch,
} satisfies ExportedHandler<import("./env").Env>;
