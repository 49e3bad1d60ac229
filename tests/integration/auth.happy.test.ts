import { describe, expect, it } from "vitest";
import {
  auth,
  authResponse,
  changePasswordResponse,
  clientConfigResponse,
  emailMessages,
  messageResponse,
  serverMessages,
  userResponse,
} from "../../contract";
import { call, callWithEnv, defaultPassword, json, latestCode, outbox, registerUser, signFirebaseToken, uniqueEmail } from "./helpers";

describe("register, sign in, sign out", () => {
  it("registers an account, signs it in and e-mails a verification code", async () => {
    const email = uniqueEmail("new");
    const res = await call("/api/auth/register", {
      json: { email: `  ${email.toUpperCase()} `, password: defaultPassword, firstName: "Ada", lastName: "Lovelace", phone: "+212 600", birthDate: "1990-12-10" },
    });
    expect(res.status).toBe(201);
    const { token, user } = await json(res, authResponse);
    expect(token).toMatch(/^tala_[A-Za-z0-9_-]{43}$/);
    expect(user).toMatchObject({
      email,
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "+212 600",
      birthDate: "1990-12-10",
      photoURL: null,
      isEmailVerified: false,
      hasPassword: true,
    });
    const [mail] = await outbox(email);
    expect(mail).toMatchObject({ to: email, subject: emailMessages["verify-email"].subject });
    expect(mail!.code).toMatch(/^\d{6}$/);
    expect(mail!.text).toContain(mail!.code);
    expect(mail!.text).toContain(`${auth.codeTtlMs / 60_000} minutes`);

    const me = await call("/api/auth/me", { token });
    expect(me.status).toBe(200);
    expect((await json(me, userResponse)).user).toEqual(user);
  });

  it("accepts only the required fields at registration", async () => {
    const email = uniqueEmail("minimal");
    const res = await call("/api/auth/register", { json: { email, password: defaultPassword, firstName: "Min" } });
    expect(res.status).toBe(201);
    expect((await json(res, authResponse)).user).toMatchObject({ email, lastName: "", phone: "", birthDate: "" });
  });

  it("signs in with e-mail (any case) and password, with a new token each time", async () => {
    const { email, password, token: first, user } = await registerUser();
    const res = await call("/api/auth/login", { json: { email: email.toUpperCase(), password } });
    expect(res.status).toBe(200);
    const body = await json(res, authResponse);
    expect(body.user).toEqual(user);
    expect(body.token).not.toBe(first);
    expect((await call("/api/auth/me", { token: body.token })).status).toBe(200);
  });

  it("signs out: the token stops working, other sessions stay", async () => {
    const { email, password, token } = await registerUser();
    const other = await json(await call("/api/auth/login", { json: { email, password } }), authResponse);
    const res = await call("/api/auth/logout", { method: "POST", token });
    expect(res.status).toBe(200);
    expect(await json(res, messageResponse)).toEqual({ message: serverMessages.signedOut });
    expect((await call("/api/auth/me", { token })).status).toBe(401);
    expect((await call("/api/auth/me", { token: other.token })).status).toBe(200);
  });

  it("answers logout with 200 even without a token", async () => {
    const res = await call("/api/auth/logout", { method: "POST" });
    expect(res.status).toBe(200);
    expect(await json(res, messageResponse)).toEqual({ message: serverMessages.signedOut });
  });

  it("updates the profile, keeping fields that were not sent", async () => {
    const { token, user } = await registerUser();
    const res = await call("/api/auth/me", { method: "PATCH", token, json: { firstName: " Grace ", birthDate: "" } });
    expect(res.status).toBe(200);
    const updated = (await json(res, userResponse)).user;
    expect(updated).toEqual({ ...user, firstName: "Grace", birthDate: "" });
    expect((await json(await call("/api/auth/me", { token }), userResponse)).user).toEqual(updated);
  });
});

describe("e-mail verification", () => {
  it("verifies the address with the e-mailed code", async () => {
    const { email, token } = await registerUser();
    const res = await call("/api/auth/verify-email/request", { json: { email } });
    expect(res.status).toBe(200);
    expect(await json(res, messageResponse)).toEqual({ message: serverMessages.codeSent });
    const confirm = await call("/api/auth/verify-email/confirm", { json: { email, code: await latestCode(email) } });
    expect(confirm.status).toBe(200);
    expect((await json(confirm, userResponse)).user).toMatchObject({ email, isEmailVerified: true });
    expect((await json(await call("/api/auth/me", { token }), userResponse)).user.isEmailVerified).toBe(true);
  });

  it("sends nothing to an address that is already verified, with the same answer", async () => {
    const { email } = await registerUser();
    await call("/api/auth/verify-email/confirm", { json: { email, code: await latestCode(email) } });
    const before = (await outbox(email)).length;
    const res = await call("/api/auth/verify-email/request", { json: { email } });
    expect(res.status).toBe(200);
    expect(await json(res, messageResponse)).toEqual({ message: serverMessages.codeSent });
    expect(await outbox(email)).toHaveLength(before);
  });
});

describe("password reset", () => {
  it("sets a new password with the e-mailed code and verifies the address", async () => {
    const { email, password } = await registerUser();
    const request = await call("/api/auth/reset-password/request", { json: { email } });
    expect(await json(request, messageResponse)).toEqual({ message: serverMessages.codeSent });
    const [mail] = await outbox(email);
    expect(mail!.subject).toBe(emailMessages["reset-password"].subject);

    const res = await call("/api/auth/reset-password/confirm", { json: { email, code: mail!.code, newPassword: "brand-new-secret" } });
    expect(res.status).toBe(200);
    expect(await json(res, messageResponse)).toEqual({ message: serverMessages.passwordReset });
    expect((await call("/api/auth/login", { json: { email, password } })).status).toBe(401);
    const login = await call("/api/auth/login", { json: { email, password: "brand-new-secret" } });
    expect(login.status).toBe(200);
    expect((await json(login, authResponse)).user.isEmailVerified).toBe(true);
  });
});

describe("e-mail change", () => {
  it("moves the account to a new, verified address after the code sent there", async () => {
    const { email, password, token, user } = await registerUser();
    const newEmail = uniqueEmail("moved");
    const request = await call("/api/auth/change-email/request", { token, json: { newEmail: newEmail.toUpperCase(), password } });
    expect(request.status).toBe(200);
    expect(await json(request, messageResponse)).toEqual({ message: serverMessages.changeEmailCodeSent });
    const [mail] = await outbox(newEmail);
    expect(mail!.subject).toBe(emailMessages["change-email"].subject);

    const confirm = await call("/api/auth/change-email/confirm", { token, json: { email: newEmail, code: mail!.code } });
    expect(confirm.status).toBe(200);
    expect((await json(confirm, userResponse)).user).toEqual({ ...user, email: newEmail, isEmailVerified: true });
    expect((await call("/api/auth/login", { json: { email: newEmail, password } })).status).toBe(200);
    expect((await call("/api/auth/login", { json: { email, password } })).status).toBe(401);
  });
});

describe("password change", () => {
  it("changes the password and hands back a fresh token", async () => {
    const { email, password, token, user } = await registerUser();
    const res = await call("/api/auth/change-password", { token, json: { currentPassword: password, newPassword: "another-secret-9" } });
    expect(res.status).toBe(200);
    const body = await json(res, changePasswordResponse);
    expect(body.message).toBe(serverMessages.passwordChanged);
    expect(body.user).toEqual(user);
    expect(body.token).not.toBe(token);
    expect((await call("/api/auth/me", { token: body.token })).status).toBe(200);
    expect((await call("/api/auth/login", { json: { email, password: "another-secret-9" } })).status).toBe(200);
  });
});

describe("Google sign-in", () => {
  it("creates an account from a verified Firebase token and accepts the ID token as Bearer", async () => {
    const email = uniqueEmail("google");
    const idToken = await signFirebaseToken({ sub: "uid-new-1", email, name: "Grace Brewster Hopper" });
    const res = await call("/api/auth/google-callback", {
      json: { idToken, uid: "uid-new-1", email, displayName: "Ignored Name", photoURL: null },
    });
    expect(res.status).toBe(200);
    const { token, user } = await json(res, authResponse);
    expect(user).toMatchObject({
      email,
      firstName: "Grace",
      lastName: "Brewster Hopper",
      photoURL: "https://lh3.googleusercontent.com/a/photo.png",
      isEmailVerified: true,
      hasPassword: false,
    });
    expect((await json(await call("/api/auth/me", { token }), userResponse)).user).toEqual(user);
    const bearer = await call("/api/auth/me", { bearer: idToken });
    expect(bearer.status).toBe(200);
    expect((await json(bearer, userResponse)).user).toEqual(user);

    // A second sign-in finds the same account by uid.
    const again = await call("/api/auth/google-callback", { json: { idToken: await signFirebaseToken({ sub: "uid-new-1", email }) } });
    expect((await json(again, authResponse)).user.id).toBe(user.id);
  });

  it("uses the client's display name and photo when the token has none", async () => {
    const idToken = await signFirebaseToken({ name: undefined, picture: undefined });
    const res = await call("/api/auth/google-callback", {
      json: { idToken, displayName: "Katherine Johnson", photoURL: "https://example.com/k.png" },
    });
    expect((await json(res, authResponse)).user).toMatchObject({
      firstName: "Katherine",
      lastName: "Johnson",
      photoURL: "https://example.com/k.png",
    });
  });

  it("links a verified Google e-mail to the existing password account", async () => {
    const { email, password, user } = await registerUser();
    const res = await call("/api/auth/google-callback", { json: { idToken: await signFirebaseToken({ sub: "uid-link-1", email }) } });
    expect(res.status).toBe(200);
    const linked = (await json(res, authResponse)).user;
    expect(linked).toMatchObject({ id: user.id, email, firstName: "Ada", isEmailVerified: true, hasPassword: true });
    expect((await call("/api/auth/login", { json: { email, password } })).status).toBe(200);
    const bearer = await call("/api/auth/me", { bearer: await signFirebaseToken({ sub: "uid-link-1", email }) });
    expect((await json(bearer, userResponse)).user.id).toBe(user.id);
  });
});

describe("client config and dev outbox", () => {
  it("hides Firebase when no web API key is configured", async () => {
    const res = await call("/api/config");
    expect(await json(res, clientConfigResponse)).toEqual({ environment: "local", firebase: null });
  });

  it("gives the Firebase web config with a default auth domain", async () => {
    const res = await callWithEnv({ FIREBASE_API_KEY: "web-key", ENVIRONMENT: "production" }, "/api/config");
    expect(await json(res, clientConfigResponse)).toEqual({
      environment: "production",
      firebase: { apiKey: "web-key", authDomain: "tala-test.firebaseapp.com", projectId: "tala-test" },
    });
    const custom = await callWithEnv({ FIREBASE_API_KEY: "web-key", FIREBASE_AUTH_DOMAIN: "login.tala.example" }, "/api/config");
    expect((await json(custom, clientConfigResponse)).firebase?.authDomain).toBe("login.tala.example");
  });

  it("lists sent e-mails newest first, filtered by recipient", async () => {
    const { email } = await registerUser();
    await call("/api/auth/reset-password/request", { json: { email } });
    const mails = await outbox(email);
    expect(mails.map((m) => m.subject)).toEqual([emailMessages["reset-password"].subject, emailMessages["verify-email"].subject]);
    expect(mails.every((m) => m.to === email)).toBe(true);
    const all = await outbox("");
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all[0]!.sentAt).toBeGreaterThanOrEqual(all[all.length - 1]!.sentAt);
  });

});
