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
// A function, not a constant: a template literal the core never reads is not shaken out of its bundle.
export const conversationsPath = () => `${C.basePath}/widget/conversations`;
/** The handoff chunk's (the core never reads them): POST { email? } / DELETE asks for a person or goes back; GET the event stream. */
export const sessionPath = (id: string) => `${sessionsPath}/${encodeURIComponent(id)}`;
export const handoffPath = (id: string) => `${sessionPath(id)}/handoff`;
export const eventsPath = (id: string) => `${sessionPath(id)}/events`;

/** A proof-of-work the server asks for (428, or a 403 refusing a proof): contract/errors.ts. */
export type Challenge = { challenge: string; difficulty: number };
/** `contact`: the owner's contact line a switched-off assistant's refusal carries. */
export type Failure = { ok: false; status: number; error: string | null; reason?: string; challenge?: Challenge; contact?: string };
export type Result = { ok: true; status: number; data: unknown } | Failure;

/**
 * The refusal reason of an HTTP error whose body names none (the server's refusals carry their
 * `reason`, limits included; the socket and SSE frames carry it themselves): from its status.
 */
export function reasonOf(status: number): string | undefined {
  if (status === 403) return "unavailable";
  if (status === 404) return "session-not-found";
  if (status === 429) return "rate-limited";
  return undefined;
}

/**
 * One request with the assistant's key and no cookies: a POST of `body` as JSON, else a GET. A
 * verified visitor's `token` rides along in its header on every call.
 */
export const request = (host: string, key: string, path: string, body: unknown, signal: AbortSignal, token?: string | null, accept = "application/json") => {
  const headers: Record<string, string> = { [C.keyHeader]: key, accept };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers[C.tokenHeader] = token;
  return fetch(host + path, { method: body === undefined ? "GET" : "POST", headers, body: JSON.stringify(body), credentials: "omit", signal });
};

/** A failed response's body: its `error` text, `challenge`, refusal `reason` and owner's `contactLine`, when it sent them. */
export async function failureOf(res: Response): Promise<{ error: string | null; challenge?: Challenge; reason?: string; contact?: string }> {
  try {
    const body = (await res.json()) as { error?: unknown; challenge?: Challenge; reason?: unknown; contactLine?: unknown };
    const c = body.challenge;
    return {
      error: typeof body.error === "string" ? body.error : null,
      challenge: c && typeof c.challenge === "string" && Number.isInteger(c.difficulty) ? c : undefined,
      reason: typeof body.reason === "string" ? body.reason : undefined,
      contact: typeof body.contactLine === "string" ? body.contactLine : undefined,
    };
  } catch {
    return { error: null };
  }
}

/** The server's `error` text of a failed response, when it sent one. */
export const errorOf = async (res: Response) => (await failureOf(res)).error;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function call(host: string, key: string, path: string, body?: unknown, token?: string | null): Promise<Result> {
  for (let attempt = 0; ; attempt++) {
    let status = 0;
    try {
      const res = await request(host, key, path, body, AbortSignal.timeout(C.timeoutMs), token);
      status = res.status;
      if (res.ok) return { ok: true, status, data: await res.json() };
      if (!C.retryStatuses.includes(status) || attempt >= C.retryDelaysMs.length) {
        const failure = await failureOf(res);
        return { ok: false, status, ...failure, reason: failure.reason ?? reasonOf(status) };
      }
    } catch {
      return { ok: false, status, error: null };
    }
    await wait(C.retryDelaysMs[attempt]!);
  }
}
