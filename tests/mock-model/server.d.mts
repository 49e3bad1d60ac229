export interface MockModelRequest {
  body: { model?: string; stream?: boolean; messages?: { role: string; content: unknown }[] } & Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  at: number;
}
export interface MockModel {
  /** Base URL to use as LLM_BASE_URL, ending in /v1. */
  url: string;
  requests: MockModelRequest[];
  close(): Promise<void>;
}
export function startMockModel(options?: {
  port?: number;
  defaults?: Partial<Record<"delay" | "ttft" | "tokens" | "fail" | "break" | "stall", number>>;
}): Promise<MockModel>;
