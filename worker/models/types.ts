/** One turn sent to a model. */
export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface GenerateRequest {
  messages: ChatTurn[];
  /** A model id the provider offers; its default when omitted. */
  model?: string;
  signal?: AbortSignal;
  temperature?: number;
  maxTokens?: number;
}

/** A language model Tala can stream from. `null` where none is configured (offline mode). */
export interface ModelProvider {
  readonly name: string;
  readonly defaultModel: string;
  listModels(): Promise<string[]>;
  /** Yields text deltas as they arrive; throws ModelError on failure, stall or a cut stream. */
  stream(req: GenerateRequest): AsyncIterable<string>;
  complete(req: GenerateRequest): Promise<string>;
}

export type ModelErrorKind = "http" | "timeout" | "broken-stream" | "network" | "aborted";

/** A model failure. Its message is safe to show: it says what went wrong, never a secret. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export interface ModelTimeouts {
  /** Longest wait for the response headers and the first token. */
  firstTokenMs: number;
  /** Longest silence between two chunks of a stream. */
  idleMs: number;
}

export const defaultTimeouts: ModelTimeouts = { firstTokenMs: 60_000, idleMs: 30_000 };
