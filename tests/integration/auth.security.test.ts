import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auth, authResponse, serverMessages, throttles, userResponse } from "../../contract";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { sha256Hex } from "../../worker/crypto/hash";
import { hashPassword } from "../../worker/crypto/password";
import * as schema from "../../worker/db/schema";
import type { Env } from "../../worker/env";
import { consumeRateLimit } from "../../worker/services/rate-limit";
import { loginCounterScopes } from "../../worker/services/throttle/login-attempts";
import { currentUser, optionalUser } from "../../worker/http/auth";
import type { AppEnv } from "../../worker/http/context";
import { AppError } from "../../worker/http/errors";
import {
  call,
  defaultPassword,
  errorOf,
  expectError,
  json,
  latestCode,
  randomIp,
  registerUser,
  uniqueEmail,
} from "./helpers";

const db = () => env.DB;
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("what is stored", () => {
  it("keeps only a PBKDF2 hash of the password, a SHA-256 of the token and of the code", async () => {
    const { token, user, email, password } = await registerUser();
    const row = await db().prepare("select password_hash from users where id = ?").bind(user.id).first<{ password_hash: string }>();
    expect(row!.password_hash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(row!.password_hash).not.toContain(password);

    const tokens = await db().prepare("select * from auth_tokens where user_id = ?").bind(user.id).all();
    expect(tokens.results).toHaveLength(1);
    expect(tokens.results[0]!.token_hash).toBe(await sha256Hex(token));
    expect(JSON.stringify(tokens.results)).not.toContain(token.slice(5));
    expect(tokens.results[0]!.expires_at).toBe((tokens.results[0]!.created_at as number) + auth.tokenTtlMs);

    const code = await latestCode(email);
    const codeRow = await db().prepare("select id, code_hash from verification_codes where email = ?").bind(email).first<{ id: string; code_hash: string }>();
    expect(codeRow!.code_hash).toBe(await sha256Hex(`${codeRow!.id}:${code}`));
  });
});

describe("password hashes", () => {
  it("upgrades a hash made with a weaker work factor at the next sign-in", async () => {
    const { user, email, password } = await registerUser();
    await db().prepare("update users set password_hash = ? where id = ?").bind(await hashPassword(password, 1000), user.id).run();
    expect((await call("/api/auth/login", { json: { email, password } })).status).toBe(200);
    const row = await db().prepare("select password_hash from users where id = ?").bind(user.id).first<{ password_hash: string }>();
    expect(row!.password_hash.split("$")[1]).toBe(String(auth.passwordKdfIterations));
    expect((await call("/api/auth/login", { json: { email, password } })).status).toBe(200);
  });
});

describe("optionalUser", () => {
  // A route open to guests, the way other resources mount the middleware.
  const app = new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set("db", drizzle(c.env.DB, { schema }));
      await next();
    })
    .get("/guest-or-user", optionalUser, (c) => c.json({ userId: currentUser(c)?.id ?? null }))
    .onError((err, c) => c.json({ error: err.message }, err instanceof AppError ? (err.status as 401) : 500));
  const request = (authorization?: string) =>
    app.request("/guest-or-user", { headers: authorization ? { authorization } : {} }, env);

  it("lets an anonymous request through, signs a token holder in, and refuses a dead token", async () => {
    const { token, user } = await registerUser();
    expect(await (await request()).json()).toEqual({ userId: null });
    expect(await (await request(`Token ${token}`)).json()).toEqual({ userId: user.id });
    await call("/api/auth/logout", { method: "POST", token });
    const dead = await request(`Token ${token}`);
    expect(dead.status).toBe(401);
    expect(await dead.json()).toEqual({ error: serverMessages.sessionExpired });
  });
});

describe("Tala tokens", () => {
  it("stops accepting a token once logged out", async () => {
    const { token, user } = await registerUser();
    await call("/api/auth/logout", { method: "POST", token });
    await expectError(await call("/api/auth/me", { token }), 401, serverMessages.sessionExpired);
    const row = await db().prepare("select revoked_at from auth_tokens where user_id = ?").bind(user.id).first<{ revoked_at: number | null }>();
    expect(row!.revoked_at).toEqual(expect.any(Number));
  });

  it("refuses an expired token", async () => {
    const { token } = await registerUser();
    await db().prepare("update auth_tokens set expires_at = ? where token_hash = ?").bind(Date.now() - 1, await sha256Hex(token)).run();
    await expectError(await call("/api/auth/me", { token }), 401, serverMessages.sessionExpired);
  });

  it("writes last_used_at at most once per interval", async () => {
    const { token } = await registerUser();
    const hash = await sha256Hex(token);
    const lastUsed = async () =>
      (await db().prepare("select last_used_at from auth_tokens where token_hash = ?").bind(hash).first<{ last_used_at: number | null }>())!.last_used_at;
    expect(await lastUsed()).toBeNull();
    await call("/api/auth/me", { token });
    const first = await lastUsed();
    expect(first).toEqual(expect.any(Number));
    const recent = Date.now() - auth.tokenTouchIntervalMs / 2;
    await db().prepare("update auth_tokens set last_used_at = ? where token_hash = ?").bind(recent, hash).run();
    await call("/api/auth/me", { token });
    expect(await lastUsed()).toBe(recent);
    const stale = Date.now() - auth.tokenTouchIntervalMs - 1000;
    await db().prepare("update auth_tokens set last_used_at = ? where token_hash = ?").bind(stale, hash).run();
    await call("/api/auth/me", { token });
    expect(await lastUsed()).toBeGreaterThan(recent);
  });

  it("revokes every session on password change, except the fresh token it returns", async () => {
    const { token, email, password } = await registerUser();
    const second = await json(await call("/api/auth/login", { json: { email, password } }), authResponse);
    const res = await call("/api/auth/change-password", { token, json: { currentPassword: password, newPassword: "rotated-secret-1" } });
    const fresh = await json(res, authResponse);
    for (const old of [token, second.token]) await expectError(await call("/api/auth/me", { token: old }), 401, serverMessages.sessionExpired);
    expect((await call("/api/auth/me", { token: fresh.token })).status).toBe(200);
    await expectError(await call("/api/auth/login", { json: { email, password } }), 401, serverMessages.invalidCredentials);
  });

  it("revokes every session on password reset", async () => {
    const { token, email, password } = await registerUser();
    const second = await json(await call("/api/auth/login", { json: { email, password } }), authResponse);
    await call("/api/auth/reset-password/request", { json: { email } });
    const res = await call("/api/auth/reset-password/confirm", { json: { email, code: await latestCode(email), newPassword: "after-reset-1" } });
    expect(res.status).toBe(200);
    for (const old of [token, second.token]) await expectError(await call("/api/auth/me", { token: old }), 401, serverMessages.sessionExpired);
  });
});

describe("one-time codes", () => {
  it("refuses an expired code", async () => {
    const { email } = await registerUser();
    const code = await latestCode(email);
    await db().prepare("update verification_codes set expires_at = ? where email = ?").bind(Date.now() - 1, email).run();
    await expectError(await call("/api/auth/verify-email/confirm", { json: { email, code } }), 400, serverMessages.invalidCode);
  });

  it("accepts a code once", async () => {
    const { email } = await registerUser();
    await call("/api/auth/reset-password/request", { json: { email } });
    const code = await latestCode(email);
    const first = await call("/api/auth/reset-password/confirm", { json: { email, code, newPassword: "first-reset-1" } });
    expect(first.status).toBe(200);
    const again = await call("/api/auth/reset-password/confirm", { json: { email, code, newPassword: "second-reset-2" } });
    await expectError(again, 400, serverMessages.invalidCode);
    expect((await call("/api/auth/login", { json: { email, password: "first-reset-1" } })).status).toBe(200);
  });

  it("lets only one of two simultaneous confirmations with the right code succeed", async () => {
    const { email } = await registerUser();
    await call("/api/auth/reset-password/request", { json: { email } });
    const code = await latestCode(email);
    const results = await Promise.all(
      ["race-one-11", "race-two-22"].map((newPassword) => call("/api/auth/reset-password/confirm", { json: { email, code, newPassword } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("retires the earlier code when a new one is requested", async () => {
    const { email } = await registerUser();
    const first = await latestCode(email);
    await call("/api/auth/verify-email/request", { json: { email } });
    const second = await latestCode(email);
    const rows = await db()
      .prepare("select consumed_at from verification_codes where email = ? order by created_at, rowid")
      .bind(email)
      .all<{ consumed_at: number | null }>();
    expect(rows.results.map((r) => r.consumed_at === null)).toEqual([false, true]);
    // (1 in 10^6 the two codes coincide; then the retired row is what the assertion above proved.)
    if (first !== second) await expectError(await call("/api/auth/verify-email/confirm", { json: { email, code: first } }), 400, serverMessages.invalidCode);
    expect((await call("/api/auth/verify-email/confirm", { json: { email, code: second } })).status).toBe(200);
  });

  it(`kills the code after ${auth.codeMaxAttempts} wrong tries`, async () => {
    const { email } = await registerUser();
    const wrong = otherCode(await latestCode(email));
    for (let i = 1; i < auth.codeMaxAttempts; i++) {
      await expectError(await call("/api/auth/verify-email/confirm", { json: { email, code: wrong } }), 400, serverMessages.invalidCode);
    }
    const last = await call("/api/auth/verify-email/confirm", { json: { email, code: wrong } });
    await expectError(last, 400, serverMessages.codeAttemptsExceeded);
    const row = await db().prepare("select attempts from verification_codes where email = ?").bind(email).first<{ attempts: number }>();
    expect(row!.attempts).toBe(auth.codeMaxAttempts);
  });

  it("refuses even the right code once the attempts are used up", async () => {
    const { email } = await registerUser();
    const code = await latestCode(email);
    await db().prepare("update verification_codes set attempts = ? where email = ?").bind(auth.codeMaxAttempts, email).run();
    await expectError(await call("/api/auth/verify-email/confirm", { json: { email, code } }), 400, serverMessages.codeAttemptsExceeded);
  });

  it("does not let another signed-in user confirm someone's e-mail change", async () => {
    const alice = await registerUser();
    const mallory = await registerUser();
    const newEmail = uniqueEmail("contested");
    await call("/api/auth/change-email/request", { token: alice.token, json: { newEmail, password: alice.password } });
    const code = await latestCode(newEmail);
    await expectError(await call("/api/auth/change-email/confirm", { token: mallory.token, json: { email: newEmail, code } }), 400, serverMessages.invalidCode);
    const ok = await call("/api/auth/change-email/confirm", { token: alice.token, json: { email: newEmail, code } });
    expect((await json(ok, userResponse)).user.email).toBe(newEmail);
  });

  it("retires codes sent to the old address once the e-mail changes", async () => {
    const { email, token, password } = await registerUser();
    const oldVerification = await latestCode(email);
    const newEmail = uniqueEmail("fresh");
    await call("/api/auth/change-email/request", { token, json: { newEmail, password } });
    await call("/api/auth/change-email/confirm", { token, json: { email: newEmail, code: await latestCode(newEmail) } });
    await expectError(await call("/api/auth/verify-email/confirm", { json: { email, code: oldVerification } }), 400, serverMessages.invalidCode);
  });

  it("answers code requests identically whether or not the account exists", async () => {
    const { email } = await registerUser();
    for (const path of ["/api/auth/verify-email/request", "/api/auth/reset-password/request"]) {
      const known = await call(path, { json: { email } });
      const unknown = await call(path, { json: { email: uniqueEmail("unknown") } });
      expect([known.status, unknown.status]).toEqual([200, 200]);
      expect(await known.json()).toEqual(await unknown.json());
    }
  });

  it("answers a wrong password and an unknown address identically", async () => {
    const { email } = await registerUser();
    const wrong = await errorOf(await call("/api/auth/login", { json: { email, password: "nope-nope" } }));
    const unknown = await errorOf(await call("/api/auth/login", { json: { email: uniqueEmail("nobody"), password: "nope-nope" } }));
    expect({ ...wrong, requestId: "" }).toEqual({ ...unknown, requestId: "" });
  });
});

describe("throttling: exactly the limit passes under concurrency", () => {
  async function expectThrottled(responses: Response[], limit: number) {
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.length - refused.length).toBe(limit);
    expect(refused).toHaveLength(responses.length - limit);
    for (const res of refused) {
      const body = await errorOf(res);
      expect(body.code).toBe("RATE_LIMITED");
      expect(body.retryAfter).toBeGreaterThan(0);
      expect(body.error).toBe(serverMessages.throttled(body.retryAfter!));
      expect(res.headers.get("retry-after")).toBe(String(body.retryAfter));
    }
  }

  // The per-IP sign-in limit is now the looser `loginIp` (spraying many accounts); the
  // strict `login` limit counts one (account, IP) pair.
  // Each failed guess runs the password KDF: the counter is brought near its limit first, and the
  // last few slots are raced for (the same exactness, without a hundred KDF runs).
  it("limits sign-in attempts per IP", async () => {
    const ip = randomIp();
    const window = throttles.loginIp;
    await consumeRateLimit(env as unknown as Env, loginCounterScopes.ip, ip, window, window.limit - 3);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => call("/api/auth/login", { ip, json: { email: uniqueEmail("spray"), password: "guess-1234" } })),
    );
    await expectThrottled(responses, 3);
  });

  // Across IPs an account now has the much looser `loginAccount` limit.
  it("limits sign-in attempts per e-mail address across IPs", async () => {
    const { email } = await registerUser();
    const window = throttles.loginAccount;
    await consumeRateLimit(env as unknown as Env, loginCounterScopes.account, email, window, window.limit - 3);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => call("/api/auth/login", { json: { email, password: "guess-1234" } })),
    );
    await expectThrottled(responses, 3);
  });

  it("limits failed sign-ins per account and IP pair", async () => {
    const { email } = await registerUser();
    const ip = randomIp();
    const { limit } = throttles.login;
    const responses = await Promise.all(
      Array.from({ length: limit + 3 }, () => call("/api/auth/login", { ip, json: { email, password: "guess-1234" } })),
    );
    await expectThrottled(responses, limit);
  }, 30_000);

  it("limits registrations per IP", async () => {
    const ip = randomIp();
    const { limit } = throttles.register;
    const responses = await Promise.all(
      Array.from({ length: limit + 2 }, () =>
        call("/api/auth/register", { ip, json: { email: uniqueEmail("bulk"), password: defaultPassword, firstName: "Bulk" } }),
      ),
    );
    await expectThrottled(responses, limit);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(limit);
  });

  it("limits code requests per address across IPs", async () => {
    const { email } = await registerUser();
    const { limit } = throttles.code;
    const responses = await Promise.all(Array.from({ length: limit + 2 }, () => call("/api/auth/reset-password/request", { json: { email } })));
    await expectThrottled(responses, limit);
  });

  it("limits code confirmations per IP across addresses", async () => {
    const ip = randomIp();
    const { limit } = throttles.code;
    const responses = await Promise.all(
      Array.from({ length: limit + 2 }, () => call("/api/auth/verify-email/confirm", { ip, json: { email: uniqueEmail(), code: "123456" } })),
    );
    await expectThrottled(responses, limit);
    expect(responses.filter((r) => r.status === 400)).toHaveLength(limit);
  });
});

describe("sign-in throttling stops attackers, not owners", () => {
  it("signs the owner in from another place while an attacker is throttled on the account", async () => {
    const { email, password } = await registerUser();
    const attacker = randomIp();
    for (let i = 0; i < throttles.login.limit; i++) {
      await expectError(await call("/api/auth/login", { ip: attacker, json: { email, password: `guess-${i}-xyz` } }), 401, serverMessages.invalidCredentials);
    }
    const refused = await call("/api/auth/login", { ip: attacker, json: { email, password: "guess-again-1" } });
    expect(refused.status).toBe(429);
    // The attacker's address is refused even with the right password (no oracle for a guesser)…
    expect((await call("/api/auth/login", { ip: attacker, json: { email, password } })).status).toBe(429);
    // …and the owner, from a new address, signs in.
    const owner = await call("/api/auth/login", { ip: randomIp(), json: { email, password } });
    expect(owner.status).toBe(200);
    await json(owner, authResponse);
  }, 30_000); // every sign-in runs the password KDF once

  it("a guesser spread over many addresses delays new places, never a place the owner signed in from", async () => {
    const { email, password } = await registerUser();
    const home = randomIp();
    expect((await call("/api/auth/login", { ip: home, json: { email, password } })).status).toBe(200);
    // Ten addresses × ten wrong guesses: the account's counter across all places is used up.
    const window = throttles.loginAccount;
    await consumeRateLimit(env as unknown as Env, loginCounterScopes.account, email, window, window.limit);
    expect((await call("/api/auth/login", { ip: randomIp(), json: { email, password: "guess-again-1" } })).status).toBe(429);
    expect((await call("/api/auth/login", { ip: randomIp(), json: { email, password } })).status).toBe(429);
    // The owner's usual place still signs in, and still only with the right password.
    expect((await call("/api/auth/login", { ip: home, json: { email, password } })).status).toBe(200);
    await expectError(await call("/api/auth/login", { ip: home, json: { email, password: "not-it-123" } }), 401, serverMessages.invalidCredentials);
  }, 30_000);

  it("counts only failures: correct sign-ins past the limit all succeed", async () => {
    const { email, password } = await registerUser();
    const ip = randomIp();
    for (let i = 0; i < throttles.login.limit + 2; i++) {
      expect((await call("/api/auth/login", { ip, json: { email, password } })).status).toBe(200);
    }
    // The failures still have their full allowance.
    for (let i = 0; i < throttles.login.limit; i++) {
      expect((await call("/api/auth/login", { ip, json: { email, password: "wrong-pass-1" } })).status).toBe(401);
    }
    expect((await call("/api/auth/login", { ip, json: { email, password: "wrong-pass-1" } })).status).toBe(429);
  }, 30_000);
});
