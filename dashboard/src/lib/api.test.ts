import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { accountMessages, api, httpClientMessages, serverMessages, storageKeys, teamLimits } from "../../../contract";
import { installMemoryStorage } from "../test/memory-storage";
import { ApiError, authorizationHeader, createApiClient, errorMessage } from "./api";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const envelope = (status: number, error: string, code: string, extra: object = {}) =>
  json(status, { error, code, requestId: "req-1", ...extra });

/** A fetch that answers each call with the next scripted result (a Response, or an Error to throw). */
function scriptedFetch(results: Array<Response | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const next = results.shift();
    if (!next) throw new Error("no scripted response left");
    if (next instanceof Error) throw next;
    return next;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

function client(results: Array<Response | Error>, authorization: () => string | null = () => null) {
  const { fetch, calls } = scriptedFetch(results);
  const waits: number[] = [];
  const c = createApiClient({ fetch, authorization, sleep: async (ms) => void waits.push(ms) });
  return { c, calls, waits };
}

const ok = z.object({ ok: z.boolean() });

describe("api client: retries", () => {
  it("retries a network error 3 times after 1000, 2000 and 4000 ms, then fails with 'Network Error'", async () => {
    const { c, calls, waits } = client([new TypeError("x"), new TypeError("x"), new TypeError("x"), new TypeError("x")]);
    const err = await c.get("/thing", { schema: ok }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(httpClientMessages.networkError);
    expect((err as ApiError).message).toBe("Network Error");
    expect((err as ApiError).status).toBe(0);
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(waits).toEqual([...api.retryDelaysMs]);
  });

  it.each([500, 502, 503, 504])("retries status %i and succeeds when the server recovers", async (status) => {
    const { c, calls, waits } = client([envelope(status, "boom", "INTERNAL_ERROR"), json(200, { ok: true })]);
    await expect(c.get("/thing", { schema: ok })).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it("gives up after the third retry of a 503 and reports the server's error", async () => {
    const answers = Array.from({ length: 4 }, () => envelope(503, "Try later", "SERVICE_UNAVAILABLE"));
    const { c, calls, waits } = client(answers);
    const err = (await c.post("/thing").catch((e: unknown) => e)) as ApiError;
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(err.status).toBe(503);
    expect(err.message).toBe("Try later");
    expect(err.fromServer).toBe(true);
  });

  it.each([401, 403, 422])("never retries status %i and hands it to the caller", async (status) => {
    const { c, calls, waits } = client([envelope(status, "nope", status === 401 ? "UNAUTHORIZED" : status === 403 ? "FORBIDDEN" : "UNPROCESSABLE")]);
    const err = (await c.get("/auth/me").catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(status);
    expect(err.message).toBe("nope");
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each([400, 404, 409, 429, 501])("does not retry other statuses (%i)", async (status) => {
    const { c, calls } = client([envelope(status, "no", "VALIDATION_ERROR")]);
    await expect(c.get("/x")).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it("carries the server's code, field errors and retryAfter", async () => {
    const { c } = client([
      envelope(400, "Some fields are invalid.", "VALIDATION_ERROR", { fields: { email: "Enter a valid email address." } }),
    ]);
    const err = (await c.post("/auth/register", {}).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe("VALIDATION_ERROR");
    expect(err.fields).toEqual({ email: "Enter a valid email address." });
    expect(err.requestId).toBe("req-1");
  });

  it("stops retrying when the caller aborts", async () => {
    const controller = new AbortController();
    const { fetch, calls } = scriptedFetch([new TypeError("x"), new TypeError("x")]);
    const c = createApiClient({
      fetch,
      authorization: () => null,
      sleep: async () => controller.abort(),
    });
    await expect(c.post("/auth/logout", undefined, { signal: controller.signal })).rejects.toBeTruthy();
    expect(calls).toHaveLength(1);
  });
});

describe("api client: a 5xx without the envelope", () => {
  const plain503 = () =>
    new Response("Your worker restarted mid-request. Please try sending the request again.", { status: 503, headers: { "content-type": "text/plain;charset=UTF-8" } });

  it("retries a plain-text 503 as it retries a JSON one, and succeeds when the server recovers", async () => {
    const { c, calls, waits } = client([plain503(), json(200, { ok: true })]);
    await expect(c.post("/thing", { a: 1 }, { schema: ok })).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it("after the last retry, shows the contract's message, as for the server's own 500", async () => {
    const plain = client(Array.from({ length: 4 }, plain503));
    const plainErr = (await plain.c.get("/thing").catch((e: unknown) => e)) as ApiError;
    expect(plain.waits).toEqual([...api.retryDelaysMs]);
    const enveloped = client(Array.from({ length: 4 }, () => envelope(500, serverMessages.internal, "INTERNAL_ERROR")));
    const envelopedErr = (await enveloped.c.get("/thing").catch((e: unknown) => e)) as ApiError;
    expect(plainErr).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", fromServer: true });
    expect(errorMessage(plainErr, "fallback")).toBe(errorMessage(envelopedErr, "fallback"));
    expect(errorMessage(plainErr, "fallback")).toBe(serverMessages.internal);
  });
});

describe("api client: timeout", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("aborts an attempt after 10 s with 'timeout of 10000ms exceeded', and retries it", async () => {
    const signals: AbortSignal[] = [];
    // Never answers: only the abort ends the attempt.
    const fetch = ((_url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        signals.push(init!.signal!);
        init!.signal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      })) as typeof globalThis.fetch;
    const waits: number[] = [];
    const c = createApiClient({ fetch, authorization: () => null, sleep: async (ms) => void waits.push(ms) });
    const result = c.get("/slow").catch((e: unknown) => e);

    await vi.advanceTimersByTimeAsync(api.timeoutMs - 1);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(api.timeoutMs * 3);

    const err = (await result) as ApiError;
    expect(err.code).toBe("TIMEOUT");
    expect(err.message).toBe("timeout of 10000ms exceeded");
    expect(signals).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });
});

describe("api client: request shape", () => {
  it("sends JSON with credentials included under /api", async () => {
    const { c, calls } = client([json(200, { ok: true })]);
    await c.post("/auth/login", { email: "a@b.co", password: "pw" }, { schema: ok });
    const { url, init } = calls[0]!;
    expect(url).toBe("/api/auth/login");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("include");
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
    expect(init.body).toBe(JSON.stringify({ email: "a@b.co", password: "pw" }));
  });

  it("sends FormData as multipart (no JSON content type)", async () => {
    const { c, calls } = client([json(200, { ok: true })]);
    const form = new FormData();
    form.append("files", new Blob(["hi"]), "a.txt");
    await c.post("/public-assistants/1/files", form, { schema: ok });
    expect(calls[0]!.init.body).toBe(form);
    expect((calls[0]!.init.headers as Record<string, string>)["content-type"]).toBeUndefined();
  });

  it("rejects a success body that does not match the contract schema", async () => {
    const { c } = client([json(200, { ok: "yes" })]);
    const err = (await c.get("/x", { schema: ok }).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe("INVALID_RESPONSE");
    expect(errorMessage(err, accountMessages.loginFailed)).toBe(accountMessages.loginFailed);
  });

  it("adds the Authorization header the credential lookup returns", async () => {
    const { c, calls } = client([json(200, { ok: true })], () => "Token abc");
    await c.get("/auth/me", { schema: ok });
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Token abc");
  });

  it("reports a 401 to the stored credential once, not one to a call's own credential or to no credential", async () => {
    const refused = () => json(401, { error: "Please sign in to continue.", code: "UNAUTHORIZED" });
    const calls: number[] = [];
    const make = (auth: string | null) =>
      createApiClient({ fetch: vi.fn(async () => refused()), authorization: () => auth, sleep: async () => undefined, onUnauthorized: () => calls.push(1) });
    await make("Token abc").get("/auth/me").catch(() => undefined);
    expect(calls).toHaveLength(1);
    await make("Token abc").delete("/auth/me", { authorization: "Bearer fresh" }).catch(() => undefined);
    await make(null).post("/auth/login", {}).catch(() => undefined);
    expect(calls).toHaveLength(1);
    // A background read that leaves the session's end to the socket: its 401 is its own.
    const quiet = await make("Token abc").get("/inbox/summary", { reportUnauthorized: false }).catch((e: unknown) => e);
    expect(quiet).toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
  });

  it("sends a write once when asked (retry: false), even on a 5xx", async () => {
    const { c, calls, waits } = client([json(503, { error: "busy", code: "SERVICE_UNAVAILABLE" }), json(200, { ok: true })]);
    await expect(c.post("/x", {}, { retry: false })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("uses a call's own Authorization instead of the stored credential's (a fresh Google ID token)", async () => {
    const { c, calls } = client([json(200, { ok: true })], () => "Token abc");
    await c.delete("/auth/me", { body: {}, authorization: "Bearer fresh", schema: ok });
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer fresh");
  });
});

describe("api client: the workspace", () => {
  it("names the chosen workspace on every call with a credential (X-Workspace-Id), and on none without one", async () => {
    const results = [json(200, { ok: true }), json(200, { ok: true }), json(200, { ok: true })];
    const { fetch, calls } = scriptedFetch(results);
    let workspace: string | null = "ws-owner";
    let auth: string | null = "Token abc";
    const c = createApiClient({ fetch, authorization: () => auth, workspaceId: () => workspace, sleep: async () => undefined });
    await c.get("/public-assistants", { schema: ok });
    expect((calls[0]!.init.headers as Record<string, string>)[teamLimits.workspaceHeader]).toBe("ws-owner");
    workspace = null;
    await c.get("/team", { schema: ok });
    expect(calls[1]!.init.headers as Record<string, string>).not.toHaveProperty(teamLimits.workspaceHeader);
    workspace = "ws-owner";
    auth = null;
    await c.post("/auth/login", {}, { schema: ok });
    expect(calls[2]!.init.headers as Record<string, string>).not.toHaveProperty(teamLimits.workspaceHeader);
  });
});

describe("authorizationHeader", () => {
  let stores: ReturnType<typeof installMemoryStorage>;
  beforeEach(() => {
    stores = installMemoryStorage();
  });

  it("is absent without credentials", () => {
    expect(authorizationHeader()).toBeNull();
  });

  it("uses the product token as 'Token <t>', from local then session storage", () => {
    stores.session.setItem(storageKeys.token, "sess");
    expect(authorizationHeader()).toBe("Token sess");
    stores.local.setItem(storageKeys.token, "loc");
    expect(authorizationHeader()).toBe("Token loc");
  });

  it("prefers the federated token as 'Bearer <t>', from local then session storage", () => {
    stores.local.setItem(storageKeys.token, "loc");
    stores.session.setItem(storageKeys.firebaseToken, "fb-sess");
    expect(authorizationHeader()).toBe("Bearer fb-sess");
    stores.local.setItem(storageKeys.firebaseToken, "fb-loc");
    expect(authorizationHeader()).toBe("Bearer fb-loc");
  });
});

describe("errorMessage", () => {
  it("shows the server's error field first, the client's own messages next, else the fallback", () => {
    const server = new ApiError({ message: "Invalid email or password.", status: 401, code: "UNAUTHORIZED", fromServer: true });
    const network = new ApiError({ message: "Network Error", status: 0, code: "NETWORK_ERROR" });
    const html502 = new ApiError({ message: "Request failed with status code 502", status: 502, code: "HTTP_ERROR" });
    expect(errorMessage(server, "Login failed")).toBe("Invalid email or password.");
    expect(errorMessage(network, "Login failed")).toBe("Network Error");
    expect(errorMessage(html502, "Login failed")).toBe("Login failed");
    expect(errorMessage(new Error("x"), "Login failed")).toBe("Login failed");
  });
});
