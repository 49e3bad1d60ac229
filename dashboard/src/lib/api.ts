/**
 * The dashboard's HTTP client (spec section 7): base /api, cookies sent, JSON or multipart,
 * a 10 s timeout per attempt, retries on network errors, timeouts and 500/502/503/504 with waits
 * of 1, 2 and 4 s, and the Authorization header of the stored credential (a guest's chat history
 * calls carry their session id instead, X-Guest-Session-Id). A 401 is handed to the caller like
 * any other error, and when the call went with the stored credential (not a one-off one such as a
 * fresh Google ID token) it also tells `onUnauthorized`: the auth store then forgets that session
 * and the access guard sends the user to /login (unlike spec section 4; README, "Where Tala
 * departs from the spec").
 *
 * Every call names the workspace it acts in (`X-Workspace-Id`, lib/workspace-choice.ts) once the
 * user chose one; without a choice the server acts in the user's own.
 *
 * `fetch`, `sleep`, the credential and the workspace lookups are injectable so the policy is unit-tested.
 */
import type { z } from "zod";
import { api, chatGuestSessionHeader, errorBodySchema, httpClientMessages, serverMessages, storageKeys, teamLimits, teamMessages, type ErrorCode } from "../../../contract";
import { readGuestSessionId, readLocalThenSession } from "./storage";
import { workspaceHeaderValue } from "./workspace-choice";

/** Codes of failures that never reached a server answer, next to the contract's server codes. */
export type ClientErrorCode = "NETWORK_ERROR" | "TIMEOUT" | "INVALID_RESPONSE" | "HTTP_ERROR";

/** A failed API call: the server's envelope when there was one, else a client-side cause. */
export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status, 0 when no response arrived (network error, timeout). */
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  /** Field name → message, on validation errors. */
  readonly fields: Record<string, string> | undefined;
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;
  /**
   * True when `message` is the server's `error` field (what the spec's catalogue shows first), or
   * the contract's message for a 5xx that came without one (errorFromBody).
   */
  readonly fromServer: boolean;

  constructor(init: {
    message: string;
    status: number;
    code: ErrorCode | ClientErrorCode;
    fields?: Record<string, string>;
    retryAfter?: number;
    requestId?: string;
    fromServer?: boolean;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
    this.fromServer = init.fromServer ?? false;
  }
}

/**
 * The message to show for a failed call: the server's `error` field, else the HTTP client's own
 * message (Network Error, timeout), else the catalogue's fallback for that situation.
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && (err.fromServer || err.code === "NETWORK_ERROR" || err.code === "TIMEOUT")) {
    return err.message;
  }
  return fallback;
}

/**
 * The headers a call outside the shared client (a download, an upload over XHR) sends with the
 * stored credential: Authorization, and the workspace the dashboard acts in.
 */
export function credentialHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const auth = authorizationHeader();
  if (auth) {
    headers.authorization = auth;
    const workspace = workspaceHeaderValue();
    if (workspace) headers[teamLimits.workspaceHeader] = workspace;
  }
  return headers;
}

/** Field errors of a failed call, if the server sent any. */
export function fieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.fields ? err.fields : {};
}

/** A failed user action, ready to show: the catalogue's message and the server's field errors. */
export class ActionError extends Error {
  override name = "ActionError";
  readonly fields: Record<string, string>;
  constructor(message: string, fields: Record<string, string> = {}) {
    super(message);
    this.fields = fields;
  }
}

/** Wraps any failure as an ActionError, using `fallback` when no better message exists. */
export function toActionError(err: unknown, fallback: string): ActionError {
  if (err instanceof ActionError) return err;
  return new ActionError(errorMessage(err, fallback), fieldErrors(err));
}

/**
 * The Authorization header for the stored credential: the federated token as `Bearer`, preferred,
 * else the product's token as `Token`; each looked up in local then session storage.
 */
export function authorizationHeader(read: (key: string) => string | null = readLocalThenSession): string | null {
  const firebaseToken = read(storageKeys.firebaseToken);
  if (firebaseToken) return `Bearer ${firebaseToken}`;
  const token = read(storageKeys.token);
  if (token) return `Token ${token}`;
  return null;
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  /**
   * Called when a request sent with the stored credential is answered 401: that session ended
   * (revoked, expired). The caller still gets the error and shows its own message.
   */
  onUnauthorized?: () => void;
  /**
   * Called when the server answers that the workspace named by X-Workspace-Id is not one of the
   * caller's (removed from it meanwhile): the workspace store goes back to the user's own.
   */
  onWorkspaceNotFound?: () => void;
  sleep?: (ms: number) => Promise<void>;
  /** Returns the Authorization header value, or null for none. */
  authorization?: () => string | null;
  /** Returns the workspace the call acts in (X-Workspace-Id), or null for none (the user's own). */
  workspaceId?: () => string | null;
  /** Returns the guest's session id, sent (X-Guest-Session-Id) on chat history calls when there is no credential; null for none. */
  guestSessionId?: () => string | null;
  basePath?: string;
  timeoutMs?: number;
  retryDelaysMs?: readonly number[];
}

export interface RequestOptions<T> {
  /** JSON-serialisable value, or FormData (sent as multipart). */
  body?: unknown;
  /** The contract schema the response body must match. Without one the body is ignored. */
  schema?: z.ZodType<T>;
  /** Cancels the call (and any pending retry) from the caller's side. */
  signal?: AbortSignal;
  /** This call's Authorization header instead of the stored credential's (a fresh Google ID token). */
  authorization?: string;
  /** false: one attempt only (a write that must not happen twice, such as a person's message). */
  retry?: boolean;
  /**
   * false: a 401 is this call's failure only, not the end of the session (a background read such as
   * the inbox badge's: the socket's own refusal ends the session, with its toast).
   */
  reportUnauthorized?: boolean;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for `wait`, or less if the caller aborts meanwhile (the next attempt then throws). */
function waitUnlessAborted(wait: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return wait;
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    void wait.then(done);
  });
}

/** Statuses worth another attempt (spec: 500, 502, 503, 504). 401/403/422 and other 4xx never are. */
function isRetryableStatus(status: number): boolean {
  return (api.retryStatuses as readonly number[]).includes(status);
}

export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const authorization = options.authorization ?? (() => authorizationHeader());
  const guestSessionId = options.guestSessionId ?? readGuestSessionId;
  const workspaceId = options.workspaceId ?? workspaceHeaderValue;
  const basePath = options.basePath ?? api.basePath;
  const timeoutMs = options.timeoutMs ?? api.timeoutMs;
  const retryDelaysMs = options.retryDelaysMs ?? api.retryDelaysMs;

  /** One attempt: resolves to a Response, or throws an ApiError for network failure / timeout. */
  async function attempt(method: Method, url: string, body: unknown, signal?: AbortSignal, override?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" };
    const auth = override ?? authorization();
    if (auth) {
      headers.authorization = auth;
      const workspace = workspaceId();
      if (workspace) headers[teamLimits.workspaceHeader] = workspace;
    } else if (url.startsWith(`${basePath}/chats`)) {
      // A guest's chat history calls carry their id, their only credential (and no other call does).
      const guestId = guestSessionId();
      if (guestId) headers[chatGuestSessionHeader] = guestId;
    }
    let payload: BodyInit | undefined;
    if (body instanceof FormData) {
      payload = body; // the browser sets the multipart boundary
    } else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }

    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort();
    signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      return await doFetch(url, { method, headers, body: payload, credentials: "include", signal: controller.signal });
    } catch (err) {
      if (signal?.aborted) throw err; // the caller cancelled: not a failure to report or retry
      if (timedOut) {
        throw new ApiError({ message: httpClientMessages.timeout(timeoutMs), status: 0, code: "TIMEOUT" });
      }
      throw new ApiError({ message: httpClientMessages.networkError, status: 0, code: "NETWORK_ERROR" });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  /** Turns a non-2xx response into an ApiError, reading the contract's error envelope when present. */
  async function toApiError(res: Response): Promise<ApiError> {
    return errorFromBody(res.status, await res.json().catch(() => null));
  }

  async function request<T = void>(method: Method, path: string, opts: RequestOptions<T> = {}): Promise<T> {
    const url = `${basePath}${path}`;
    for (let i = 0; ; i++) {
      let failure!: ApiError;
      let res: Response | undefined;
      try {
        res = await attempt(method, url, opts.body, opts.signal, opts.authorization);
        // The stored credential was refused (not a one-off credential of this call): say so once.
        if (res.status === 401 && !opts.authorization && opts.reportUnauthorized !== false && authorization()) options.onUnauthorized?.();
      } catch (err) {
        // Only a network error or a timeout lands here as an ApiError; both are retried.
        if (!(err instanceof ApiError)) throw err;
        failure = err;
      }
      if (res) {
        if (res.ok) return await parseBody(res, opts.schema);
        failure = await toApiError(res);
        if (res.status === 404 && failure.fromServer && failure.message === teamMessages.workspaceNotFound) options.onWorkspaceNotFound?.();
        if (!isRetryableStatus(res.status)) throw failure;
      }
      const delay = opts.retry === false ? undefined : retryDelaysMs[i];
      if (delay === undefined || opts.signal?.aborted) throw failure;
      await waitUnlessAborted(sleep(delay), opts.signal);
    }
  }

  return {
    request,
    get: <T = void>(path: string, opts?: RequestOptions<T>) => request<T>("GET", path, opts),
    post: <T = void>(path: string, body?: unknown, opts?: RequestOptions<T>) => request<T>("POST", path, { ...opts, body }),
    put: <T = void>(path: string, body?: unknown, opts?: RequestOptions<T>) => request<T>("PUT", path, { ...opts, body }),
    patch: <T = void>(path: string, body?: unknown, opts?: RequestOptions<T>) => request<T>("PATCH", path, { ...opts, body }),
    delete: <T = void>(path: string, opts?: RequestOptions<T>) => request<T>("DELETE", path, opts),
  };
}

/**
 * The ApiError of a failed answer: the server's envelope when it sent one. A 5xx without it (a
 * plain-text page of a proxy or the runtime, a worker restarting) reads as the server's own 5xx
 * would: the contract's message, shown to the user, and retried alike by its status.
 */
export function errorFromBody(status: number, raw: unknown, retryAfter?: number): ApiError {
  const parsed = errorBodySchema.safeParse(raw);
  if (parsed.success) {
    const b = parsed.data;
    return new ApiError({ message: b.error, status, code: b.code, fields: b.fields, retryAfter: retryAfter ?? b.retryAfter, requestId: b.requestId, fromServer: true });
  }
  if (status === 0) return new ApiError({ message: httpClientMessages.networkError, status: 0, code: "NETWORK_ERROR" });
  if (status >= 500) return new ApiError({ message: serverMessages.internal, status, code: status === 503 ? "SERVICE_UNAVAILABLE" : "INTERNAL_ERROR", retryAfter, fromServer: true });
  return new ApiError({ message: `Request failed with status code ${status}`, status, code: "HTTP_ERROR" });
}

/** Parses a successful body with the contract schema; a mismatch is an error, never trusted. */
async function parseBody<T>(res: Response, schema: z.ZodType<T> | undefined): Promise<T> {
  if (!schema) return undefined as T;
  const raw: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ApiError({ message: httpClientMessages.invalidResponse, status: res.status, code: "INVALID_RESPONSE" });
  }
  return parsed.data;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The dashboard's shared client. */
let unauthorizedHandler: (() => void) | null = null;
let workspaceNotFoundHandler: (() => void) | null = null;

/** Who hears that the chosen workspace answered 404 (the workspace store, which falls back to the user's own). */
export function onWorkspaceRefused(handler: (() => void) | null): void {
  workspaceNotFoundHandler = handler;
}

/** Who hears that the stored session ended (the auth store, which signs this browser out). */
export function onSessionRefused(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

export const apiClient: ApiClient = createApiClient({
  onUnauthorized: () => unauthorizedHandler?.(),
  onWorkspaceNotFound: () => workspaceNotFoundHandler?.(),
});
