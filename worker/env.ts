import type { VectorizeLike } from "./knowledge";
import type { WorkersAiBinding } from "./models/workers-ai";
import type { CrawlQueueMessage, IngestQueueMessage, WebhookQueueMessage } from "./queues/messages";

/** Cloudflare's Workers Rate Limiting binding (wrangler.toml `[[ratelimits]]`): whether one more call under `key` passes. */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * The RPC interfaces of the Durable Objects, as `Env` names them. Each object's own module adds
 * its class to its interface (declaration merging: `declare module "../env"`), so this file
 * imports none of them and the objects, which all read `Env`, form no import circle with it.
 */
/* eslint-disable @typescript-eslint/no-empty-object-type -- filled in by each object's module */
export interface AssistantHubRpc extends Rpc.DurableObjectBranded {}
export interface ChatRoomRpc extends Rpc.DurableObjectBranded {}
export interface WidgetRoomRpc extends Rpc.DurableObjectBranded {}
export interface RateLimiterRpc extends Rpc.DurableObjectBranded {}
/* eslint-enable @typescript-eslint/no-empty-object-type */

/** Bindings and configuration of the Worker (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  RATE_LIMITER: DurableObjectNamespace<RateLimiterRpc>;
  /** Per-IP minute throttles (services/ip-throttle.ts): widget visitor messages, and answer ratings. */
  WIDGET_MESSAGE_IP_LIMITER: RateLimitBinding;
  WIDGET_FEEDBACK_IP_LIMITER: RateLimitBinding;
  CHAT_ROOM: DurableObjectNamespace<ChatRoomRpc>;
  /** Widget visitor sessions' sockets: one room per visitor session, partyserver. */
  WIDGET_ROOM: DurableObjectNamespace<WidgetRoomRpc>;
  /** One per public assistant (its id): the visitor sessions with a socket open, for revocation. */
  ASSISTANT_HUB: DurableObjectNamespace<AssistantHubRpc>;
  /** Workers AI, in production only (no local emulation): the model when LLM_BASE_URL is unset. */
  AI?: WorkersAiBinding;
  /** Queue `tala-ingest`: knowledge files waiting for embeddings, and website sources' crawl runs (consumed by worker/queues/ingest.ts). */
  INGEST_QUEUE?: Queue<IngestQueueMessage | CrawlQueueMessage>;
  /** Queue `tala-webhooks`: webhook deliveries, one attempt a message (the assistant's object sends them; consumed by worker/queues/webhooks.ts). */
  WEBHOOK_QUEUE?: Queue<WebhookQueueMessage>;
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
