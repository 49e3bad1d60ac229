import { createApp } from "./app";
import { handleIngestBatch } from "./queues/ingest";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { ChatRoom } from "./durable-objects/chat-room";
export { WidgetRoom } from "./durable-objects/widget-room";
export { AssistantHub } from "./durable-objects/assistant-hub";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleIngestBatch,
} satisfies ExportedHandler<import("./env").Env>;
