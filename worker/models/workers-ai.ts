import { SseParser } from "./sse";
import { readWithTimeouts } from "./read-stream";
import { defaultTimeouts, ModelError, type GenerateRequest, type ModelProvider } from "./types";

/** The slice of the Workers AI binding Tala uses (typed here: the binding is absent locally). */
export interface WorkersAiBinding {
  run(model: string, input: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

export const WORKERS_AI_CHAT_MODEL = "@cf/meta/llama-3.1-8b-instruct";

/** Cloudflare Workers AI through the `AI` binding, streaming. */
export class WorkersAiProvider implements ModelProvider {
  readonly name = "workers-ai";
  constructor(
    private readonly ai: WorkersAiBinding,
    readonly defaultModel: string = WORKERS_AI_CHAT_MODEL,
  ) {}

  async listModels() {
    return [this.defaultModel];
  }

  async *stream(req: GenerateRequest): AsyncIterable<string> {
    let out: unknown;
    try {
      out = await this.ai.run(req.model || this.defaultModel, { messages: req.messages, stream: true, max_tokens: req.maxTokens ?? 2048 });
    } catch (err) {
      throw new ModelError("http", `Workers AI could not answer: ${String((err as Error)?.message ?? err).slice(0, 200)}`);
    }
    if (!(out instanceof ReadableStream)) throw new ModelError("broken-stream", "Workers AI sent no stream.");
    const parser = new SseParser();
    let finished = false;
    const handle = function* (payloads: string[]) {
      for (const data of payloads) {
        if (data.trim() === "[DONE]") {
          finished = true;
          continue;
        }
        try {
          const chunk = JSON.parse(data) as { response?: string };
          if (chunk.response) yield chunk.response;
        } catch {
          // ignore malformed keep-alives
        }
      }
    };
    for await (const text of readWithTimeouts(out as ReadableStream<Uint8Array>, defaultTimeouts, req.signal)) yield* handle(parser.push(text));
    yield* handle(parser.flush());
    if (!finished) throw new ModelError("broken-stream", "The connection to Workers AI was interrupted.");
  }

  async complete(req: GenerateRequest) {
    let text = "";
    for await (const d of this.stream(req)) text += d;
    return text;
  }
}
