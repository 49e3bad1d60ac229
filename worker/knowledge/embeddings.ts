import { z } from "zod";

/**
 * Turns passages and questions into vectors. Three implementations: an OpenAI-compatible
 * `/embeddings` endpoint (local mode: Ollama, vLLM, LM Studio, OpenAI…), the Workers AI binding
 * (production: `@cf/baai/bge-m3`, multilingual, 1024 dimensions), and a deterministic hashing fake
 * for tests. None is required: without one, retrieval is lexical only.
 */
export interface EmbeddingProvider {
  /** Names the model, so stored vectors can be told apart from another model's. */
  readonly model: string;
  /** Vector length; 0 until the first call when the endpoint decides it. */
  readonly dimensions: number;
  /** One vector per text, in order. Throws `EmbeddingError`. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** An embedding call failed (network, status, timeout, malformed answer). For logs, not for owners. */
export class EmbeddingError extends Error {
  override name = "EmbeddingError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const openAiResponse = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().optional() })),
});

export interface OpenAiEmbeddingsOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Known vector length, if any; otherwise learnt from the first answer. */
  dimensions?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** POST {baseUrl}/embeddings with `{ model, input: [...] }`, bearer `apiKey` when set. */
export class OpenAiCompatibleEmbeddings implements EmbeddingProvider {
  readonly model: string;
  dimensions: number;
  private readonly url: string;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: OpenAiEmbeddingsOptions) {
    this.model = options.model;
    this.dimensions = options.dimensions ?? 0;
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) out.push(...(await this.request(texts.slice(i, i + this.batchSize))));
    return out;
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let response: Response;
    try {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
      response = await this.fetcher(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.model, input, encoding_format: "float" }),
        signal: controller.signal,
      });
    } catch (error) {
      const reason = controller.signal.aborted ? `timed out after ${this.timeoutMs} ms` : String(error);
      throw new EmbeddingError(`Embedding request to ${this.url} failed: ${reason}`);
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => "")).slice(0, 200);
      throw new EmbeddingError(`Embedding request to ${this.url} failed with HTTP ${response.status}: ${detail}`, response.status);
    }
    const parsed = openAiResponse.safeParse(await response.json().catch(() => null));
    if (!parsed.success || parsed.data.data.length !== input.length) {
      throw new EmbeddingError(`Embedding response from ${this.url} is not an OpenAI embeddings answer for ${input.length} inputs`);
    }
    const rows = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    const vectors = rows.map((row) => Float32Array.from(row.embedding));
    this.checkDimensions(vectors);
    return vectors;
  }

  private checkDimensions(vectors: Float32Array[]) {
    for (const vector of vectors) {
      if (!this.dimensions) this.dimensions = vector.length;
      if (vector.length !== this.dimensions) {
        throw new EmbeddingError(`Embedding of ${vector.length} dimensions where ${this.dimensions} were expected`);
      }
    }
  }
}

/** The Workers AI binding, typed loosely: it is not configured locally. */
export interface WorkersAiBinding {
  run(model: string, input: unknown): Promise<unknown>;
}

const workersAiResponse = z.object({ data: z.array(z.array(z.number())) });

/** Workers AI text embeddings (`env.AI.run(model, { text })`), bge-m3 by default. */
export class WorkersAiEmbeddings implements EmbeddingProvider {
  readonly dimensions: number;
  private readonly batchSize: number;

  constructor(
    private readonly ai: WorkersAiBinding,
    readonly model = "@cf/baai/bge-m3",
    options: { dimensions?: number; batchSize?: number } = {},
  ) {
    this.dimensions = options.dimensions ?? 1024;
    this.batchSize = options.batchSize ?? 50;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize);
      let raw: unknown;
      try {
        raw = await this.ai.run(this.model, { text: batch });
      } catch (error) {
        throw new EmbeddingError(`Workers AI ${this.model} failed: ${String(error)}`);
      }
      const parsed = workersAiResponse.safeParse(raw);
      if (!parsed.success || parsed.data.data.length !== batch.length) {
        throw new EmbeddingError(`Workers AI ${this.model} returned no embeddings for ${batch.length} inputs`);
      }
      out.push(...parsed.data.data.map((v) => Float32Array.from(v)));
    }
    return out;
  }
}

/**
 * A deterministic fake for tests: a hashed bag of words (lower-cased letter/digit runs, FNV-1a
 * into `dimensions` buckets with a sign bit), L2-normalised. Texts sharing words are close.
 */
export class HashingEmbeddings implements EmbeddingProvider {
  readonly model = "hashing-bag-of-words";
  calls = 0;
  constructor(readonly dimensions = 256) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    return texts.map((text) => {
      const vector = new Float32Array(this.dimensions);
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        let hash = 0x811c9dc5;
        for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193) >>> 0;
        vector[hash % this.dimensions]! += hash & 0x80000000 ? -1 : 1;
      }
      const norm = Math.hypot(...vector) || 1;
      for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
      return vector;
    });
  }
}

/**
 * The provider the environment configures: the Workers AI binding when present, else an
 * OpenAI-compatible endpoint when LLM_BASE_URL and EMBEDDING_MODEL are set, else none.
 */
export function embeddingProviderFromEnv(env: {
  AI?: WorkersAiBinding;
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  EMBEDDING_MODEL?: string;
}): EmbeddingProvider | null {
  if (env.AI) return new WorkersAiEmbeddings(env.AI);
  if (env.LLM_BASE_URL && env.EMBEDDING_MODEL) {
    return new OpenAiCompatibleEmbeddings({ baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.EMBEDDING_MODEL });
  }
  return null;
}
