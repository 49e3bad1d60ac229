import { env } from "cloudflare:test";
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { authResponse, serverMessages } from "../../contract";
import { call, callWithEnv, expectError, foreignKey, json, registerUser, signFirebaseToken, uniqueEmail } from "./helpers";

// Firebase ID tokens, at POST /auth/google-callback and as `Authorization: Bearer` on /auth/me.
// The worker trusts only FIREBASE_JWKS (vitest.workers.config.ts) for project "tala-test".

describe("Firebase ID tokens", () => {
  const callback = (idToken: string) => call("/api/auth/google-callback", { json: { idToken } });
  const t = Math.floor(Date.now() / 1000);

  it.each([
    ["signed by a key Google never published", async () => signFirebaseToken({}, { key: await foreignKey() })],
    ["expired", () => signFirebaseToken({ iat: t - 7200, auth_time: t - 7200, exp: t - 60 })],
    ["for another project (audience)", () => signFirebaseToken({ aud: "someone-elses-project" })],
    ["from another issuer", () => signFirebaseToken({ iss: "https://securetoken.google.com/someone-elses-project" })],
    ["issued in the future", () => signFirebaseToken({ iat: t + 3600, exp: t + 7200 })],
    ["authenticated in the future", () => signFirebaseToken({ auth_time: t + 3600 })],
    ["without a subject", () => signFirebaseToken({ sub: "" })],
    ["without auth_time", () => signFirebaseToken({ auth_time: undefined })],
    ["with an unknown key id", () => signFirebaseToken({}, { kid: "no-such-key" })],
    [
      "signed with HS256",
      () => new SignJWT({ sub: "x", email: uniqueEmail() }).setProtectedHeader({ alg: "HS256", kid: "tala-test-key" }).setIssuedAt().setExpirationTime("1h").sign(new TextEncoder().encode("x".repeat(32))),
    ],
    ["unsigned (alg none)", async () => new UnsecuredJWT({ sub: "x", aud: "tala-test", iss: "https://securetoken.google.com/tala-test" }).setIssuedAt().setExpirationTime("1h").encode()],
  ])("refuses a token %s", async (_label, make) => {
    const idToken = await make();
    await expectError(await callback(idToken), 401, serverMessages.invalidFederatedToken);
    await expectError(await call("/api/auth/me", { bearer: idToken }), 401, serverMessages.sessionExpired);
  });

  it("accepts a Bearer ID token only once google-callback linked its uid", async () => {
    const idToken = await signFirebaseToken({ sub: "uid-not-yet" });
    await expectError(await call("/api/auth/me", { bearer: idToken }), 401, serverMessages.sessionExpired);
    expect((await callback(idToken)).status).toBe(200);
    expect((await call("/api/auth/me", { bearer: idToken })).status).toBe(200);
  });

  it("never links an account through an unverified Google e-mail", async () => {
    const victim = await registerUser();
    const idToken = await signFirebaseToken({ sub: "uid-attacker", email: victim.email, email_verified: false });
    await expectError(await callback(idToken), 409, serverMessages.emailTaken);
    const row = await env.DB.prepare("select firebase_uid from users where id = ?").bind(victim.user.id).first<{ firebase_uid: string | null }>();
    expect(row!.firebase_uid).toBeNull();
    await expectError(await call("/api/auth/me", { bearer: idToken }), 401, serverMessages.sessionExpired);
  });

  it("trusts the token, not the payload's uid and e-mail", async () => {
    const victim = await registerUser();
    const email = uniqueEmail("honest");
    const idToken = await signFirebaseToken({ sub: "uid-honest", email });
    const res = await call("/api/auth/google-callback", {
      json: { idToken, uid: "uid-victim", email: victim.email, displayName: "X", photoURL: "javascript:alert(1)" },
    });
    const { user } = await json(res, authResponse);
    expect(user.id).not.toBe(victim.user.id);
    expect(user.email).toBe(email);
    const noPicture = await signFirebaseToken({ sub: "uid-nopic", picture: undefined });
    const created = await json(await call("/api/auth/google-callback", { json: { idToken: noPicture, photoURL: "javascript:alert(1)" } }), authResponse);
    expect(created.user.photoURL).toBeNull();
  });
});

describe("the test key set (FIREBASE_JWKS)", () => {
  it("is trusted in local mode only: in production a token signed with it never signs in", async () => {
    const idToken = await signFirebaseToken({ sub: `uid-prod-${crypto.randomUUID()}` });
    // Google's published key set is asked instead: answered here (no test reaches the internet)
    // with Google's shape and none of the test's keys, as the real one would be.
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith("https://www.googleapis.com/")) return realFetch(input, init);
      asked.push(url);
      return Response.json({ keys: [] });
    });
    try {
      const res = await callWithEnv({ ENVIRONMENT: "production" }, "/api/auth/google-callback", { json: { idToken } });
      await expectError(res, 401, serverMessages.invalidFederatedToken);
      expect(asked.length).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
    // The same token in local mode is accepted: the refusal above is the mode, not the token.
    expect((await call("/api/auth/google-callback", { json: { idToken } })).status).toBe(200);
  });
});
