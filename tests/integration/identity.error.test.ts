import { describe, expect, it } from "vitest";
import { serverMessages, visitorIdentity, visitorIdentityMessages as V } from "../../contract";
import { signVisitorToken } from "../../worker/crypto/visitor-token";
import { call, expectError } from "./helpers";
import { conversationsRaw, createIdentitySecret, secretPath, startSignedSession, startSignedSessionRaw, visitorToken } from "./identity-helpers";
import { hubRows } from "./public-assistants-helpers";
import { widgetAssistant, widgetCall } from "./widget-helpers";

const nowS = () => Math.floor(Date.now() / 1000);

describe("visitor tokens the widget refuses (401, never anonymous)", () => {
  it("refuses expired, too long, wrong-secret, malformed and claim-less tokens, and starts no session", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { secret } = await createIdentitySecret(token, assistant._id);
    const cases: [string, string][] = [
      [await visitorToken(secret, { sub: "u", exp: nowS() - 3600 }), V.tokenExpired],
      [await visitorToken(secret, { sub: "u", exp: nowS() + 3 * 24 * 3600 }), V.tokenTooLong(24)],
      [await visitorToken("tala_vs_someone-elses-secret-000000000000000000000", { sub: "u" }), V.tokenInvalid],
      [await signVisitorToken({ exp: nowS() + 60 }, secret), V.tokenClaims],
      ["not-a-token", V.tokenInvalid],
      ["a.b.c", V.tokenInvalid],
    ];
    for (const [userToken, message] of cases) {
      const res = await startSignedSessionRaw(key, userToken);
      await expectError(res, 401, message);
    }
    const [row] = await hubRows(assistant._id, "SELECT count(*) AS n FROM visitor_sessions");
    expect(Number(row?.n ?? 0)).toBe(0);
  });

  it("refuses a token too long to be one", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    await createIdentitySecret(token, assistant._id);
    await expectError(await startSignedSessionRaw(key, `${"a".repeat(visitorIdentity.maxTokenChars)}.b.c`), 401, V.tokenInvalid);
  });

  it("says the assistant has no identity secret yet", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const userToken = await visitorToken("tala_vs_whatever-secret-the-site-has-00000000000000", { sub: "u" });
    await expectError(await startSignedSessionRaw(key, userToken), 401, V.noSecret);
    await expectError(await conversationsRaw(key, userToken), 401, V.noSecret);
  });

  it("asks for a token on the conversations list, and refuses a bad one", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { secret } = await createIdentitySecret(token, assistant._id);
    await expectError(await conversationsRaw(key), 401, V.tokenRequired);
    await expectError(await conversationsRaw(key, await visitorToken(secret, { sub: "u", exp: nowS() - 600 })), 401, V.tokenExpired);
    // The key is checked first, as on every widget call.
    expect((await conversationsRaw("tala_pk_" + "x".repeat(43), await visitorToken(secret, { sub: "u" }))).status).toBe(401);
  });

  it("refuses an expired token on a verified session's reads and messages", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { secret } = await createIdentitySecret(token, assistant._id);
    const session = await startSignedSession(key, await visitorToken(secret, { sub: "u" }));
    const expired = await visitorToken(secret, { sub: "u", exp: nowS() - 600 });
    await expectError(
      await widgetCall(`/api/widget/sessions/${session.sessionId}`, { key, headers: { [visitorIdentity.tokenHeader]: expired } }),
      401,
      V.tokenExpired,
    );
    await expectError(
      await widgetCall(`/api/widget/sessions/${session.sessionId}/messages`, {
        key,
        headers: { [visitorIdentity.tokenHeader]: expired },
        json: { clientMessageId: crypto.randomUUID(), content: "hi" },
      }),
      401,
      V.tokenExpired,
    );
  });
});

describe("identity-secret routes: bad input", () => {
  it("refuses a body that is present but not JSON, and creates nothing", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    for (const body of ["{graceHours", "graceHours=24"]) {
      await expectError(await call(secretPath(assistant._id), { token, method: "POST", body, headers: { "content-type": "application/json" } }), 400, serverMessages.invalidJson);
    }
    const status = await call(secretPath(assistant._id), { token });
    expect(await status.json()).toEqual({ current: null, previous: null });
  });

  it("refuses a grace period that is not one of the options", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    for (const graceHours of [5, -1, "24", 1.5]) {
      await expectError(await call(secretPath(assistant._id), { token, json: { graceHours } }), 400, V.graceInvalid(visitorIdentity.graceHours.options));
    }
  });

  it("ends no grace when there is none, and answers the status", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const res = await call(`${secretPath(assistant._id)}/previous`, { token, method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ current: null, previous: null });
  });

  it("refuses a limit scope that is not session or user", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const res = await call(`/api/public-assistants/${assistant._id}`, { token, method: "PUT", json: { config: { visitorLimitScope: "device" } } });
    await expectError(res, 400, V.limitScopeInvalid(visitorIdentity.limitScopes));
  });
});
