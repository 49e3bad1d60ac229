import { widgetStrings } from "../../../contract/widget-strings";
import * as C from "./contract";

/**
 * The widget's HTTP calls. Paths mirror `widgetApiPaths` of contract/schemas/widget.ts (that file
 * imports zod, which the core cannot carry; api.test.ts keeps the two equal). Nothing throws: every
 * outcome is a result. 500, 502, 503 and 504 are retried with the spec's waits (1, 2, 4 s); a network
 * error is not: to a page, an Origin the assistant refuses looks the same, and retrying it would
 * only repeat the browser's CORS error in the host's console.
 */
export const sessionsPath = `${C.basePath}/widget/sessions`;
export const configPath = `${C.basePath}/widget/config`;
export const messagesPath = (id: string) => `${sessionsPath}/${encodeURIComponent(id)}/messages`;
export const feedbackPath = (id: string, messageId: string) => `${messagesPath(id)}/${encodeURIComponent(messageId)}/feedback`;
export const socketPath = (id: string) => `/parties/widget/${encodeURIComponent(id)}`;

export type Failure = { ok: false; status: number; error: string | null; reason?: string };
export type Result = { ok: true; status: number; data: unknown } | Failure;

/** The refusal reason of an HTTP error (the socket and SSE frames carry it themselves). */
export function reasonOf(status: number, error: string | null): string | undefined {
  // The server's texts are the contract's, which the English strings reuse.
  if (error === widgetStrings.en.sessionLimitReached) return "session-limit";
  if (error === widgetStrings.en.dailyLimitReached) return "daily-limit";
  if (status === 403) return "unavailable";
  if (status === 404) return "session-not-found";
  if (status === 429) return "rate-limited";
  return undefined;
}

/** One request with the assistant's key and no cookies: a POST of `body` as JSON, else a GET. */
export const request = (host: string, key: string, path: string, body: unknown, signal: AbortSignal, accept = "application/json") =>
  fetch(host + path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? { [C.keyHeader]: key, accept } : { [C.keyHeader]: key, accept, "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "omit",
    signal,
  });

/** The server's `error` text of a failed response, when it sent one. */
export async function errorOf(res: Response): Promise<string | null> {
  try {
    const body = (await res.json()) as { error?: unknown };
    return typeof body.error === "string" ? body.error : null;
  } catch {
    return null;
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function call(host: string, key: string, path: string, body?: unknown): Promise<Result> {
  for (let attempt = 0; ; attempt++) {
    let status = 0;
    try {
      const res = await request(host, key, path, body, AbortSignal.timeout(C.timeoutMs));
      status = res.status;
      if (res.ok) return { ok: true, status, data: await res.json() };
      if (!C.retryStatuses.includes(status) || attempt >= C.retryDelaysMs.length) {
        const error = await errorOf(res);
        return { ok: false, status, error, reason: reasonOf(status, error) };
      }
    } catch {
      return { ok: false, status, error: null };
    }
    await wait(C.retryDelaysMs[attempt]!);
  }
}
