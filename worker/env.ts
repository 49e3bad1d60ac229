import type { AssistantHub } from "./durable-objects/assistant-hub";
import type { ChatRoom } from "./durable-objects/chat-room";
import type { RateLimiter } from "./durable-objects/rate-limiter";
import type { WidgetRoom } from "./durable-objects/widget-room";
import type { VectorizeLike } from "./knowledge";
import type { WorkersAiBinding } from "./models/workers-ai";
import type { IngestQueueMessage } from "./services/public-assistants/enqueue-embeddings";
import type { CrawlQueueMessage } from "./services/web-sources/enqueue-crawl";

/** Cloudflare's Workers Rate Limiting binding (wrangler.toml `[[ratelimits]]`): whether one more call under `key` passes. */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** Bindings and configuration of the Worker (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** Per-IP minute throttles (services/ip-throttle.ts): widget visitor messages, and answer ratings. */
  WIDGET_MESSAGE_IP_LIMITER: RateLimitBinding;
  WIDGET_FEEDBACK_IP_LIMITER: RateLimitBinding;
  CHAT_ROOM: DurableObjectNamespace<ChatRoom>;
  /** Widget visitor sessions' sockets: one room per visitor session, partyserver. */
  WIDGET_ROOM: DurableObjectNamespace<WidgetRoom>;
  /** One per public assistant (its id): the visitor sessions with a socket open, for revocation. */
  ASSISTANT_HUB: DurableObjectNamespace<AssistantHub>;
  /** Workers AI, in production only (no local emulation): the model when LLM_BASE_URL is unset. */
  AI?: WorkersAiBinding;
  /** Queue `tala-ingest`: knowledge files waiting for embeddings, and website sources' crawl runs (consumed by worker/queues/ingest.ts). */
  INGEST_QUEUE?: Queue<IngestQueueMessage | CrawlQueueMessage>;
  /** Vectorize index for knowledge vectors, in production only (no local emulation); D1 holds them otherwise. */
  VECTORIZE?: VectorizeLike;

  /** Local mode only (tests): the pause between two crawler requests to one site, instead of `webSources.requestSpacingMs`. */
  CRAWL_SPACING_MS?: string;
  /** "local" under `npm start` and the tests; "production" when deployed. */
  ENVIRONMENT: string;
  /** Benches only, local mode only: every D1 query waits this many ms and is logged (db/latency.ts). */
  TALA_D1_DELAY_MS?: string;
  /** Firebase project whose ID tokens are accepted (the token audience). */
  FIREBASE_PROJECT_ID?: string;
  FIREBASE_API_KEY?: string;
  FIREBASE_AUTH_DOMAIN?: string;
  /** Tests only: a JSON Web Key Set used instead of Google's published keys. */
  FIREBASE_JWKS?: string;
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  EMBEDDING_MODEL?: string;
  ENCRYPTION_KEY?: string;
  EMAIL_API_URL?: string;
  EMAIL_API_KEY?: string;
  EMAIL_FROM?: string;
}

export const isLocal = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT === "local";
