import { SseParser } from "./sse";
import { readWithTimeouts } from "./read-stream";
import { defaultTimeouts, ModelError, type GenerateRequest, type ModelProvider, type ModelTimeouts } from "./types";

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeouts?: ModelTimeouts;
  fetch?: typeof fetch;
}

interface ChunkShape {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  error?: { message?: string };
}

/**
 * Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio, OpenRouter…). A stream
 * counts as complete only when it says so ([DONE] or a finish_reason): a connection that ends
 * before that is a broken stream, not a short answer.
 */
export class OpenAiCompatibleProvider implements ModelProvider {
  readonly name = "openai-compatible";
  readonly defaultModel: string;
  private readonly base: string;
  private readonly timeouts: ModelTimeouts;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.defaultModel = options.model ?? "";
    this.timeouts = options.timeouts ?? defaultTimeouts;
    this.doFetch = options.fetch ?? ((...args) => fetch(...args));
  }

  private headers() {
    const h: Record<string, string> = { "content-type": "application/json" };
    if (this.options.apiKey) h.authorization = `Bearer ${this.options.apiKey}`;
    return h;
  }

  private async post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    // The first-token limit covers the wait for the response's headers only: the fetch's signal
    // also governs its body, so a limit left armed (AbortSignal.timeout) cut every answer that
    // streamed longer than firstTokenMs. Past the headers, readWithTimeouts bounds the silences.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeouts.firstTokenMs);
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    let res: Response;
    try {
      res = await this.doFetch(`${this.base}${path}`, { method: "POST", headers: this.headers(), body: JSON.stringify(body), signal: combined });
    } catch {
      if (signal?.aborted) throw new ModelError("aborted", "Generation was stopped.");
      if (timeout.signal.aborted) throw new ModelError("timeout", "The model did not answer in time.");
      throw new ModelError("network", "The model could not be reached.");
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) {
      const detail = await res.text().catch(() => "");
      let message = "";
      try {
        message = (JSON.parse(detail) as ChunkShape).error?.message ?? "";
      } catch {
        // not JSON
      }
      throw new ModelError("http", `The model answered with an error (${res.status}${message ? `: ${message.slice(0, 200)}` : ""}).`, res.status);
    }
    return res;
  }

  async listModels(): Promise<string[]> {
    try {
      const res = await this.doFetch(`${this.base}/models`, { headers: this.headers(), signal: AbortSignal.timeout(5000) });
      if (!res.ok) return this.defaultModel ? [this.defaultModel] : [];
      const body = (await res.json()) as { data?: { id?: string }[] };
      const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string");
      return ids.length ? ids : this.defaultModel ? [this.defaultModel] : [];
    } catch {
      return this.defaultModel ? [this.defaultModel] : [];
    }
  }

  async *stream(req: GenerateRequest): AsyncIterable<string> {
    const res = await this.post(
      "/chat/completions",
      { model: req.model || this.defaultModel, messages: req.messages, stream: true, temperature: req.temperature, max_tokens: req.maxTokens },
      req.signal,
    );
    if (!res.body) throw new ModelError("broken-stream", "The model sent an empty response.");
    const parser = new SseParser();
    let finished = false;
    const handle = function* (payloads: string[]) {
      for (const data of payloads) {
        if (data.trim() === "[DONE]") {
          finished = true;
          continue;
        }
        let chunk: ChunkShape;
        try {
          chunk = JSON.parse(data) as ChunkShape;
        } catch {
          continue;
        }
        if (chunk.error) throw new ModelError("http", `The model reported an error: ${(chunk.error.message ?? "unknown").slice(0, 200)}`);
        const choice = chunk.choices?.[0];
        const text = choice?.delta?.content;
        if (text) yield text;
        if (choice?.finish_reason) finished = true;
      }
    };
    for await (const text of readWithTimeouts(res.body, this.timeouts, req.signal)) yield* handle(parser.push(text));
    yield* handle(parser.flush());
    if (!finished) throw new ModelError("broken-stream", "The connection to the model was interrupted.");
  }

  async complete(req: GenerateRequest): Promise<string> {
    let out = "";
    for await (const delta of this.stream(req)) out += delta;
    return out;
  }
}
