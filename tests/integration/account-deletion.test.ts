import { env, runInDurableObject } from "cloudflare:test";
import { hubFootprint } from "./public-assistants-helpers";
import { describe, expect, it } from "vitest";
import { auth, authResponse, deleteAccountResponse, serverMessages } from "../../contract";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { seedChat, userRoomFootprint } from "./chat-helpers";
import { call, errorOf, expectError, json, registerUser, signFirebaseToken, uniqueEmail } from "./helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { startSession, widgetAssistant } from "./widget-helpers";

/** DELETE /api/auth/me: the account and everything it owns goes; nobody else's data does. */

/** A user with a project, a chat with messages, and a public assistant with a file and a visitor session. */
async function populatedAccount() {
  const { token, assistant, key } = await widgetAssistant();
  const me = await json(await call("/api/auth/me", { token }), authResponse.pick({ user: true }));
  const project = await call("/api/projects", { token, json: { name: "Research" } });
  expect(project.status).toBe(201);
  const chatId = await seedChat(me.user.id, { title: "Hello", messages: ["hi", "hello"] });
  const { sessionId } = await startSession(key);
  // Visitor messages live in the assistant's own object (AssistantHub SQLite).
  await runInDurableObject(getAssistantHub(env, assistant._id), (_instance, state) => {
    state.storage.sql.exec("INSERT INTO visitor_messages (id, session_id, role, content, created_at) VALUES (?, ?, 'user', 'hello', ?)", crypto.randomUUID(), sessionId, Date.now());
  });
  await createSecretKey(token, assistant._id);
  return { token, userId: me.user.id, email: me.user.email, assistantId: assistant._id, chatId, sessionId };
}

const hubOf = (assistantId: string) => hubFootprint(assistantId);
const roomOf = (userId: string) => userRoomFootprint(userId);

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${sql}`).bind(...binds).first<{ n: number }>())!.n;

async function dataOf(account: Awaited<ReturnType<typeof populatedAccount>>) {
  return {
    users: await count("users WHERE id = ?1", account.userId),
    tokens: await count("auth_tokens WHERE user_id = ?1", account.userId),
    codes: await count("verification_codes WHERE user_id = ?1 OR email = ?2", account.userId, account.email),
    // D1 (legacy rows) and the user's own room, where chats, messages and projects live now.
    projects: (await count("projects WHERE user_id = ?1", account.userId)) + (await roomOf(account.userId)).projects,
    chats: (await count("chats WHERE user_id = ?1", account.userId)) + (await roomOf(account.userId)).chats,
    messages: (await count("messages WHERE chat_id = ?1", account.chatId)) + (await roomOf(account.userId)).messages,
    assistants: await count("public_assistants WHERE user_id = ?1", account.userId),
    files: (await count("knowledge_files WHERE assistant_id = ?1", account.assistantId)) + (await hubOf(account.assistantId)).files,
    chunks:
      (await count("knowledge_chunks WHERE file_id IN (SELECT id FROM knowledge_files WHERE assistant_id = ?1)", account.assistantId)) +
      (await hubOf(account.assistantId)).chunks,
    // D1 (legacy rows) and the assistant's own object, where sessions and messages live now.
    sessions: (await count("visitor_sessions WHERE assistant_id = ?1", account.assistantId)) + (await hubOf(account.assistantId)).sessions,
    visitorMessages: (await count("visitor_messages WHERE session_id = ?1", account.sessionId)) + (await hubOf(account.assistantId)).messages,
    secretKeys: await count("assistant_secret_keys WHERE assistant_id = ?1", account.assistantId),
    objects: (await env.FILES.list({ prefix: `assistants/${account.assistantId}/` })).objects.length,
  };
}

describe("DELETE /api/auth/me", () => {
  it("deletes the account and all its data, and leaves another user's untouched", async () => {
    const mine = await populatedAccount();
    const theirs = await populatedAccount();
    const before = await dataOf(mine);
    expect(before).toMatchObject({ users: 1, projects: 1, chats: 1, messages: 2, assistants: 1, files: 1, sessions: 1, visitorMessages: 1, secretKeys: 1, objects: 1 });
    expect(before.chunks).toBeGreaterThan(0);
    const theirsBefore = await dataOf(theirs);

    const res = await call("/api/auth/me", { method: "DELETE", token: mine.token, json: { password: "correct-horse-42" } });
    expect(res.status).toBe(200);
    expect(await json(res, deleteAccountResponse)).toEqual({ message: serverMessages.accountDeleted });

    expect(await dataOf(mine)).toEqual({
      users: 0, tokens: 0, codes: 0, projects: 0, chats: 0, messages: 0, assistants: 0, files: 0, chunks: 0, sessions: 0,
      visitorMessages: 0, secretKeys: 0, objects: 0,
    });
    expect(await dataOf(theirs)).toEqual(theirsBefore);
    // Signed out everywhere: the token no longer opens anything.
    await expectError(await call("/api/auth/me", { token: mine.token }), 401, serverMessages.sessionExpired);
    expect((await call("/api/auth/me", { token: theirs.token })).status).toBe(200);
  });

  it("refuses a wrong or missing password and deletes nothing", async () => {
    const mine = await populatedAccount();
    const before = await dataOf(mine);
    const wrong = await call("/api/auth/me", { method: "DELETE", token: mine.token, json: { password: "not-my-password" } });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ error: serverMessages.wrongPassword, fields: { password: serverMessages.wrongPassword } });
    const missing = await call("/api/auth/me", { method: "DELETE", token: mine.token, json: {} });
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatchObject({ error: serverMessages.passwordRequired, fields: { password: serverMessages.passwordRequired } });
    expect(await dataOf(mine)).toEqual(before);
    expect((await call("/api/auth/me", { token: mine.token })).status).toBe(200);
  });

  it("needs a valid credential", async () => {
    await expectError(await call("/api/auth/me", { method: "DELETE", json: { password: "whatever-1" } }), 401, serverMessages.authRequired);
    const { token } = await registerUser();
    await call("/api/auth/logout", { method: "POST", token });
    await expectError(await call("/api/auth/me", { method: "DELETE", token, json: { password: "correct-horse-42" } }), 401, serverMessages.sessionExpired);
  });

  it("deletes a federated-only account without a password", async () => {
    const email = uniqueEmail("google");
    const idToken = await signFirebaseToken({ sub: `uid-${crypto.randomUUID()}`, email });
    const signIn = await call("/api/auth/google-callback", { json: { idToken } });
    expect(signIn.status).toBe(200);
    const { user } = await json(signIn, authResponse);
    const res = await call("/api/auth/me", { method: "DELETE", bearer: idToken, json: {} });
    expect(res.status).toBe(200);
    expect(await count("users WHERE id = ?1", user.id)).toBe(0);
  });

  it("refuses to delete a federated-only account on a Tala token or a stale Google sign-in", async () => {
    const email = uniqueEmail("google");
    const uid = `uid-${crypto.randomUUID()}`;
    const signIn = await call("/api/auth/google-callback", { json: { idToken: await signFirebaseToken({ sub: uid, email }) } });
    const { user, token } = await json(signIn, authResponse);
    // The 30-day Tala token from google-callback alone (a stolen session) cannot erase the account.
    await expectError(await call("/api/auth/me", { method: "DELETE", token, json: {} }), 403, serverMessages.recentGoogleSignInRequired);
    const now = Math.floor(Date.now() / 1000);
    const stale = await signFirebaseToken({ sub: uid, email, auth_time: now - Math.ceil(auth.recentFederatedLoginMs / 1000) - 60 });
    await expectError(await call("/api/auth/me", { method: "DELETE", bearer: stale, json: {} }), 403, serverMessages.recentGoogleSignInRequired);
    expect(await count("users WHERE id = ?1", user.id)).toBe(1);
  });
});
