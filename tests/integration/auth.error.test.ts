import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auth, serverMessages } from "../../contract";
import { call, callWithEnv, defaultPassword, errorOf, latestCode, outbox, registerUser, signFirebaseToken, uniqueEmail } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

const validRegistration = () => ({ email: uniqueEmail(), password: defaultPassword, firstName: "Ada" });

describe("POST /auth/register", () => {
  it("answers 400 with the schema's message per field", async () => {
    const res = await call("/api/auth/register", { json: { email: "not-an-email", password: "short", firstName: " " } });
    expect(res.status).toBe(400);
    const body = await errorOf(res);
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.fields).toEqual({
      email: serverMessages.invalidEmail,
      password: serverMessages.passwordTooShort(auth.passwordMinLength),
      firstName: serverMessages.firstNameRequired,
    });
    expect(body.error).toBe(serverMessages.invalidEmail);
  });

  it("refuses a malformed birth date and an over-long password", async () => {
    const res = await call("/api/auth/register", {
      json: { ...validRegistration(), birthDate: "10/12/1990", password: "x".repeat(auth.passwordMaxLength + 1) },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({
      birthDate: serverMessages.invalidBirthDate,
      password: serverMessages.passwordTooLong(auth.passwordMaxLength),
    });
  });

  it("answers 400 invalidJson to a body that is not JSON", async () => {
    const res = await call("/api/auth/register", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "VALIDATION_ERROR", error: serverMessages.invalidJson });
  });

  it("answers 409 emailTaken for an address in use, whatever its case", async () => {
    const { email } = await registerUser();
    const res = await call("/api/auth/register", { json: { ...validRegistration(), email: email.toUpperCase() } });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: "CONFLICT", error: serverMessages.emailTaken });
  });

  it("lets exactly one of two simultaneous registrations of one address through", async () => {
    const input = validRegistration();
    const statuses = (await Promise.all([0, 1].map(() => call("/api/auth/register", { json: input })))).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 409]);
  });
});

describe("POST /auth/login", () => {
  it("answers 401 invalidCredentials to a wrong password", async () => {
    const { email } = await registerUser();
    const res = await call("/api/auth/login", { json: { email, password: "wrong-password" } });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: "UNAUTHORIZED", error: serverMessages.invalidCredentials });
  });

  it("answers the same 401 to an unknown address", async () => {
    const res = await call("/api/auth/login", { json: { email: uniqueEmail("nobody"), password: defaultPassword } });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: "UNAUTHORIZED", error: serverMessages.invalidCredentials });
  });

  it("tells a Google-only account to use Google", async () => {
    const email = uniqueEmail("google-only");
    await call("/api/auth/google-callback", { json: { idToken: await signFirebaseToken({ email }) } });
    const res = await call("/api/auth/login", { json: { email, password: defaultPassword } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).error).toBe(serverMessages.federatedOnlyAccount);
  });

  it("answers 400 to missing fields", async () => {
    const res = await call("/api/auth/login", { json: { email: "" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ email: serverMessages.invalidEmail, password: serverMessages.passwordRequired });
  });
});

describe("GET and PATCH /auth/me", () => {
  it("answers 401 authRequired without credentials, or with an unknown scheme", async () => {
    for (const headers of [{}, { authorization: "Basic dXNlcjpwYXNz" }, { authorization: "Token" }] as HeadersInit[]) {
      const res = await call("/api/auth/me", { headers });
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatchObject({ code: "UNAUTHORIZED", error: serverMessages.authRequired });
    }
  });

  it("answers 401 sessionExpired to an unknown token", async () => {
    for (const token of ["tala_not-a-real-token", "garbage"]) {
      const res = await call("/api/auth/me", { token });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).error).toBe(serverMessages.sessionExpired);
    }
  });

  it("refuses an empty first name or a bad birth date, changing nothing", async () => {
    const { token, user } = await registerUser();
    const res = await call("/api/auth/me", { method: "PATCH", token, json: { firstName: "", birthDate: "yesterday" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ firstName: serverMessages.firstNameRequired, birthDate: serverMessages.invalidBirthDate });
    expect(await (await call("/api/auth/me", { token })).json()).toEqual({ user });
  });

  it("requires a session to update the profile", async () => {
    expect((await call("/api/auth/me", { method: "PATCH", json: { firstName: "X" } })).status).toBe(401);
  });
});

describe("verification and reset codes", () => {
  it("answers codeSent for an unknown address and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    for (const path of ["/api/auth/verify-email/request", "/api/auth/reset-password/request"]) {
      const res = await call(path, { json: { email } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: serverMessages.codeSent });
    }
    expect(await outbox(email)).toEqual([]);
  });

  it("answers 400 invalidCode to a wrong code, or when none was requested", async () => {
    const { email } = await registerUser();
    const code = await latestCode(email);
    const wrong = code === "000000" ? "000001" : "000000";
    for (const [path, target] of [
      ["/api/auth/verify-email/confirm", email],
      ["/api/auth/verify-email/confirm", uniqueEmail("none")],
    ] as const) {
      const res = await call(path, { json: { email: target, code: wrong } });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: "VALIDATION_ERROR", error: serverMessages.invalidCode, fields: { code: serverMessages.invalidCode } });
    }
  });

  it("refuses a code that is not 6 digits before looking it up", async () => {
    const res = await call("/api/auth/verify-email/confirm", { json: { email: uniqueEmail(), code: "12ab56" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ code: serverMessages.invalidCode });
  });

  it("does not accept a verification code as a reset code", async () => {
    const { email } = await registerUser();
    const res = await call("/api/auth/reset-password/confirm", { json: { email, code: await latestCode(email), newPassword: "new-password-1" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error).toBe(serverMessages.invalidCode);
  });

  it("refuses a too-short new password on reset", async () => {
    const res = await call("/api/auth/reset-password/confirm", { json: { email: uniqueEmail(), code: "123456", newPassword: "short" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ newPassword: serverMessages.passwordTooShort(auth.passwordMinLength) });
  });
});

describe("e-mail change", () => {
  it("requires a session", async () => {
    expect((await call("/api/auth/change-email/request", { json: { newEmail: uniqueEmail(), password: "x" } })).status).toBe(401);
    expect((await call("/api/auth/change-email/confirm", { json: { email: uniqueEmail(), code: "123456" } })).status).toBe(401);
  });

  it("answers 400 on the password field to a wrong password, without signing out", async () => {
    const { token } = await registerUser();
    const newEmail = uniqueEmail("new");
    const res = await call("/api/auth/change-email/request", { token, json: { newEmail, password: "not-my-password" } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ error: serverMessages.wrongPassword, fields: { password: serverMessages.wrongPassword } });
    expect(await outbox(newEmail)).toEqual([]);
    expect((await call("/api/auth/me", { token })).status).toBe(200);
  });

  it("answers 409 to an address another account has, and 400 to the current one", async () => {
    const other = await registerUser();
    const { token, email, password } = await registerUser();
    const taken = await call("/api/auth/change-email/request", { token, json: { newEmail: other.email, password } });
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).error).toBe(serverMessages.emailTaken);
    const same = await call("/api/auth/change-email/request", { token, json: { newEmail: email, password } });
    expect(same.status).toBe(400);
    expect((await errorOf(same)).fields).toEqual({ newEmail: serverMessages.sameEmail });
  });

  it("answers 400 invalidCode to a wrong code, leaving the address unchanged", async () => {
    const { token, password, user } = await registerUser();
    const newEmail = uniqueEmail("new");
    await call("/api/auth/change-email/request", { token, json: { newEmail, password } });
    const code = await latestCode(newEmail);
    const res = await call("/api/auth/change-email/confirm", { token, json: { email: newEmail, code: code === "999999" ? "999998" : "999999" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error).toBe(serverMessages.invalidCode);
    expect(await (await call("/api/auth/me", { token })).json()).toEqual({ user });
  });

  it("answers 409 when the new address was registered between request and confirm", async () => {
    const { token, password } = await registerUser();
    const newEmail = uniqueEmail("raced");
    await call("/api/auth/change-email/request", { token, json: { newEmail, password } });
    const code = await latestCode(newEmail);
    await registerUser({ email: newEmail });
    const res = await call("/api/auth/change-email/confirm", { token, json: { email: newEmail, code } });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).error).toBe(serverMessages.emailTaken);
  });
});

describe("POST /auth/change-password", () => {
  it("answers 400 on currentPassword to a wrong current password, keeping the session", async () => {
    const { token } = await registerUser();
    const res = await call("/api/auth/change-password", { token, json: { currentPassword: "wrong-one", newPassword: "new-password-1" } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ error: serverMessages.wrongPassword, fields: { currentPassword: serverMessages.wrongPassword } });
    expect((await call("/api/auth/me", { token })).status).toBe(200);
  });

  it("refuses the same password and a too-short one", async () => {
    const { token, password } = await registerUser();
    const same = await call("/api/auth/change-password", { token, json: { currentPassword: password, newPassword: password } });
    expect((await errorOf(same)).fields).toEqual({ newPassword: serverMessages.samePassword });
    const short = await call("/api/auth/change-password", { token, json: { currentPassword: password, newPassword: "short" } });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).fields).toEqual({ newPassword: serverMessages.passwordTooShort(auth.passwordMinLength) });
  });

  it("requires a session", async () => {
    const res = await call("/api/auth/change-password", { json: { currentPassword: "a", newPassword: "new-password-1" } });
    expect(res.status).toBe(401);
  });
});

describe("POST /auth/google-callback", () => {
  it("answers 503 federatedNotConfigured when no Firebase project is set", async () => {
    const res = await callWithEnv({ FIREBASE_PROJECT_ID: undefined }, "/api/auth/google-callback", { json: { idToken: await signFirebaseToken() } });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({ code: "SERVICE_UNAVAILABLE", error: serverMessages.federatedNotConfigured });
  });

  it("answers 400 without an ID token and 401 to one that is not a JWT", async () => {
    expect((await call("/api/auth/google-callback", { json: { uid: "x" } })).status).toBe(400);
    const res = await call("/api/auth/google-callback", { json: { idToken: "not.a.jwt" } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).error).toBe(serverMessages.invalidFederatedToken);
  });

  it("refuses a token without an e-mail for a new account", async () => {
    const res = await call("/api/auth/google-callback", { json: { idToken: await signFirebaseToken({ email: undefined }) } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).error).toBe(serverMessages.invalidFederatedToken);
  });
});

describe("dev outbox and e-mail delivery outside local mode", () => {
  it("answers GET /api/dev/outbox with 404, like an unknown path, when not local", async () => {
    const res = await callWithEnv({ ENVIRONMENT: "production" }, "/api/dev/outbox");
    expect(res.status).toBe(404);
    const unknown = await errorOf(await call("/api/dev/nothing-here"));
    expect(await errorOf(res)).toMatchObject({ code: unknown.code, error: unknown.error });
  });

  it("answers 503 emailSendFailed when no e-mail API key is configured, leaving no code behind", async () => {
    const { email } = await registerUser();
    const before = await env.DB.prepare("select count(*) as n from verification_codes where email = ?").bind(email).first<{ n: number }>();
    const res = await callWithEnv({ ENVIRONMENT: "production", EMAIL_API_KEY: undefined, EMAIL_FROM: "Tala <hi@tala.test>" }, "/api/auth/reset-password/request", { json: { email } });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({ code: "SERVICE_UNAVAILABLE", error: serverMessages.emailSendFailed });
    const after = await env.DB.prepare("select count(*) as n from verification_codes where email = ?").bind(email).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("still registers the account when the verification e-mail cannot be sent", async () => {
    const email = uniqueEmail("unmailed");
    const res = await callWithEnv({ ENVIRONMENT: "production", EMAIL_API_KEY: undefined }, "/api/auth/register", {
      json: { ...validRegistration(), email },
    });
    expect(res.status).toBe(201);
    expect((await call("/api/auth/login", { json: { email, password: defaultPassword } })).status).toBe(200);
  });

  it("posts the e-mail to the provider and answers 503 when it refuses", async () => {
    const { email } = await registerUser();
    const sent: { url: string; init: RequestInit }[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
      sent.push({ url: String(url), init: init ?? {} });
      return new Response("{}", { status: sent.length === 1 ? 200 : 500 });
    });
    const production = { ENVIRONMENT: "production", EMAIL_API_KEY: "re_test_key", EMAIL_FROM: "Tala <hi@tala.test>" };
    const ok = await callWithEnv(production, "/api/auth/reset-password/request", { json: { email } });
    expect(ok.status).toBe(200);
    expect(sent[0]!.url).toBe("https://api.resend.com/emails");
    expect(new Headers(sent[0]!.init.headers).get("authorization")).toBe("Bearer re_test_key");
    const payload = JSON.parse(String(sent[0]!.init.body)) as Record<string, string>;
    expect(payload).toMatchObject({ from: "Tala <hi@tala.test>", to: email, subject: "Reset your Tala password" });
    expect(payload.text).toMatch(/\b\d{6}\b/);

    const refused = await callWithEnv(production, "/api/auth/reset-password/request", { json: { email } });
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).error).toBe(serverMessages.emailSendFailed);
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
});
