import { createExecutionContext, env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { SignJWT, generateKeyPair, importJWK, type CryptoKey, type JWK, type JWTPayload } from "jose";
import { expect } from "vitest";
import type { z } from "zod";
import { authResponse, errorBodySchema, outboxResponse, type RegisterBody, type User } from "../../contract";
import { createApp } from "../../worker/app";
import type { Env } from "../../worker/env";

/**
 * How many rows each of `tables` holds in a Durable Object's SQLite (a table not created yet: 0).
 * Tests count an object's rows here, so no shipped class carries a counting method for them.
 */
export function tableCounts<K extends string>(storage: DurableObjectStorage, tables: Record<K, string>): Record<K, number> {
  const present = new Set(storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((r) => String(r.name)));
  const counts = {} as Record<K, number>;
  for (const [name, table] of Object.entries(tables) as [K, string][]) {
    counts[name] = present.has(table) ? Number(storage.sql.exec(`SELECT count(*) AS n FROM ${table}`).one().n) : 0;
  }
  return counts;
}

const EVICTED = "evicted by the test";

/**
 * Ends one Durable Object's instance, as an eviction does: its storage stays, and the next call
 * starts a new instance that knows only what storage holds (the runtime's `ctx.abort`). `stub`
 * is spent by it: reach the object through a new stub.
 */
export async function evictDurableObject(stub: DurableObjectStub): Promise<void> {
  const ended = await runInDurableObject(stub, (_instance, state) => state.abort(EVICTED)).then(
    () => null,
    (error: unknown) => error,
  );
  expect(String(ended)).toContain(EVICTED);
}

export interface CallInit extends Omit<RequestInit, "body"> {
  /** Sent as a JSON body (and content-type). */
  json?: unknown;
  body?: BodyInit;
  /** Tala token: `Authorization: Token <t>`. */
  token?: string;
  /** Firebase ID token: `Authorization: Bearer <t>`. */
  bearer?: string;
  /** The caller's IP (cf-connecting-ip). Defaults to a fresh random one, so per-IP throttles of one test never starve another. */
  ip?: string;
}

export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join(".")}`;
export const uniqueEmail = (label = "user") => `${label}-${crypto.randomUUID().slice(0, 12)}@example.com`;

function toRequest(path: string, init: CallInit = {}): Request {
  const { json: payload, token, bearer, ip, headers, body, ...rest } = init;
  const h = new Headers(headers);
  h.set("cf-connecting-ip", ip ?? randomIp());
  if (token) h.set("authorization", `Token ${token}`);
  if (bearer) h.set("authorization", `Bearer ${bearer}`);
  if (payload !== undefined) h.set("content-type", "application/json");
  const method = rest.method ?? (payload !== undefined || body !== undefined ? "POST" : "GET");
  return new Request(`http://tala.test${path}`, { ...rest, method, headers: h, body: payload !== undefined ? JSON.stringify(payload) : body });
}

/** One request to the worker as deployed (`exports.default.fetch`), bindings of vitest.workers.config.ts. */
export const call = (path: string, init?: CallInit) => exports.default.fetch(toRequest(path, init));

/** The same request to a fresh app with some bindings overridden (production mode, Firebase unset…). */
export const callWithEnv = (overrides: Partial<Record<keyof Env, string | undefined>>, path: string, init?: CallInit) =>
  createApp().fetch(toRequest(path, init), { ...env, ...overrides } as unknown as Env, createExecutionContext());

/** The JSON body; with a schema, parsed by it (so a shape drift fails the test). */
export async function json<S extends z.ZodType>(res: Response, schema: S): Promise<z.infer<S>>;
export async function json(res: Response): Promise<unknown>;
export async function json(res: Response, schema?: z.ZodType) {
  const body: unknown = await res.json();
  return schema ? schema.parse(body) : body;
}

/** The error envelope of a failed response, checked against the contract. */
export const errorOf = (res: Response) => json(res, errorBodySchema);

/** Asserts an error response's status and the `error` message the user sees. */
export async function expectError(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect((await errorOf(res)).error).toBe(message);
}

export const defaultPassword = "correct-horse-42";

/** Registers a fresh account (unique e-mail, random IP) and returns its first token. */
export async function registerUser(overrides: Partial<RegisterBody> = {}): Promise<{ token: string; user: User; email: string; password: string }> {
  const input = {
    email: uniqueEmail(),
    password: defaultPassword,
    firstName: "Ada",
    lastName: "Lovelace",
    phone: "+212 600 000 000",
    birthDate: "1990-12-10",
    ...overrides,
  };
  const res = await call("/api/auth/register", { json: input });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const { token, user } = await json(res, authResponse);
  return { token, user, email: user.email, password: input.password };
}

/** Every e-mail the dev outbox holds for `to`, newest first. */
export async function outbox(to: string) {
  const res = await call(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return (await json(res, outboxResponse)).emails;
}

/** The code in the newest e-mail sent to `email` (read through GET /api/dev/outbox). */
export async function latestCode(email: string): Promise<string> {
  const [latest] = await outbox(email);
  if (!latest?.code) throw new Error(`no code was sent to ${email}`);
  return latest.code;
}

let testKey: Promise<CryptoKey> | undefined;
const signingKey = () => (testKey ??= importJWK(JSON.parse(env.TEST_FIREBASE_PRIVATE_JWK) as JWK, "RS256") as Promise<CryptoKey>);
/** A key Google never published, for forged tokens. */
export const foreignKey = async () => (await generateKeyPair("RS256")).privateKey;

export const FIREBASE_PROJECT = "tala-test";

/**
 * A Firebase-style ID token signed with the test key the worker trusts (FIREBASE_JWKS).
 * Claims default to a fresh, valid token for a new uid; pass any claim (or `undefined`) to change it.
 */
export async function signFirebaseToken(claims: JWTPayload & Record<string, unknown> = {}, options: { key?: CryptoKey; kid?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: `https://securetoken.google.com/${FIREBASE_PROJECT}`,
    aud: FIREBASE_PROJECT,
    sub: `fb-${crypto.randomUUID()}`,
    iat: now - 10,
    exp: now + 3600,
    auth_time: now - 10,
    email: uniqueEmail("google"),
    email_verified: true,
    name: "Grace Hopper",
    picture: "https://lh3.googleusercontent.com/a/photo.png",
    ...claims,
  };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", kid: options.kid ?? "tala-test-key", typ: "JWT" })
    .sign(options.key ?? (await signingKey()));
}

/**
 * Runs a test of a per-IP minute throttle (the Rate Limiting binding: windows aligned on the
 * minute) once more when the minute turned under it: the window that just began has a whole
 * minute left. `run` must use fresh addresses each time.
 */
export async function withinOneMinute(run: () => Promise<void>) {
  for (let attempt = 0; ; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    try {
      await run();
      return;
    } catch (error) {
      if (attempt > 0 || Math.floor(Date.now() / 60_000) === minute) throw error;
    }
  }
}
