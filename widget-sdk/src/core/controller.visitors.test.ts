import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { visitorIdentity } from "../../../contract/constants";
import { botDefenceMessages, visitorIdentityMessages } from "../../../contract/messages";
import { widgetApiPaths, createWidgetSessionBody } from "../../../contract/schemas/widget";
import { visitorConversationsResponse } from "../../../contract/schemas/visitors";
import { frWidgetStrings, enWidgetStrings, widgetStrings } from "../../../contract/widget-strings";
// The chunks register themselves on import, as their scripts do in a page.
import "../chunks/blocked";
import "../chunks/pow";
import "../chunks/visitor";
import { CHUNK_GLOBAL } from "../types";
import { Controller } from "./controller";

/**
 * Know-your-visitors features against a scripted server (fetch stubbed; msw is not installed): signed visitor
 * identity (token on every call, storage keyed by the token's user, 401 never anonymous,
 * conversations), proof-of-work (428, a refused proof's fresh challenge, giving up), and a chunk
 * that fails to load.
 */
const HOST = "https://tala.example";
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const tokenFor = (sub: string, extra = "") => `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub, exp: 2e9, name: `User ${sub}${extra}` })}.sig${extra}`;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const session = (sessionId: string, visitor?: { id: string }) => json({ sessionId, messages: [], remaining: { session: 10, daily: 100 }, ...(visitor && { visitor }) });
const zeroBits = (text: string) => {
  let bits = 0;
  for (const byte of createHash("sha256").update(text, "utf8").digest()) {
    if (byte === 0) bits += 8;
    else return bits + Math.clz32(byte) - 24;
  }
  return bits;
};

type Sent = { path: string; body: Record<string, unknown> | null; headers: Record<string, string> };
let sent: Sent[];
let sessionsAnswer: (body: Record<string, unknown>, n: number) => Response;
let sockets: string[];
let store: Map<string, string>;
let scripts: { src: string; nonce?: string }[];

beforeEach(() => {
  sent = [];
  sockets = [];
  scripts = [];
  store = new Map();
  sessionsAnswer = (body) => session(`s-${(body.visitorSessionId as string) ?? "new"}`);
  vi.stubGlobal("document", {
    documentElement: { lang: "en" },
    head: { appendChild: (s: { src: string; nonce?: string; onerror: () => void }) => (scripts.push(s), setTimeout(() => s.onerror(), 0)) },
    createElement: () => ({ remove() {} }),
  });
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  vi.stubGlobal("location", { href: "https://shop.example/" });
  vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
  vi.stubGlobal(
    "WebSocket",
    class {
      readyState = 0;
      constructor(url: string) {
        sockets.push(url);
      }
      close() {}
      send() {}
    },
  );
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.slice(HOST.length);
      const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
      sent.push({ path, body, headers: init.headers as Record<string, string> });
      if (path === widgetApiPaths.config) {
        return json({
          assistant: { id: "asst", name: "A", headerText: "H", welcomeMessage: "", primaryColor: "#2962FF", position: "bottom-right", size: "medium", allowAttachments: false, showSources: true },
          limits: { maxMessagesPerSession: 10, dailyLimit: 100 },
        });
      }
      if (path === widgetApiPaths.sessions) return sessionsAnswer(body!, sent.filter((s) => s.path === path).length);
      if (path === widgetApiPaths.conversations) {
        return json(
          visitorConversationsResponse.parse({
            visitor: { id: "u1" },
            conversations: [
              { sessionId: "old2", title: "Where is my order?", lastMessageAt: 2_000, messageCount: 2 },
              { sessionId: "old1", title: "Refunds?", lastMessageAt: 1_000, messageCount: 4 },
            ],
          }),
        );
      }
      return json({ error: "?" }, 404);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function widget(options: { userToken?: string; locale?: string } = {}) {
  const emit = vi.fn();
  const c = new Controller({ apiKey: "tala_pk_test", host: HOST, nonce: "n0nce", ...options }, emit);
  await c.start();
  return { c, emit };
}
const posts = () => sent.filter((s) => s.path === widgetApiPaths.sessions);
async function sendOne(c: Controller) {
  c.setOpen(true);
  c.set({ draft: "Hello" });
  await c.send();
}

describe("a signed visitor", () => {
  it("sends the token in POST /sessions (contract body), on the socket's URL and keeps the session under the user", async () => {
    const token = tokenFor("u1");
    const { c } = await widget({ userToken: token });
    expect(c.state.verified).toBe(true);
    await sendOne(c);
    const [post] = posts();
    expect(createWidgetSessionBody.parse(post!.body).userToken).toBe(token);
    expect(new URL(sockets[0]!).searchParams.get(visitorIdentity.socketQuery)).toBe(token);
    expect(store.get("tala:session:asst:user:u1")).toBe("s-new");
    expect(store.has("tala:session:asst")).toBe(false);
  });

  it("resumes only their own stored conversation: another user of this browser gets none of it", async () => {
    store.set("tala:session:asst:user:u1", "mine");
    store.set("tala:session:asst", "anonymous");
    const { c } = await widget({ userToken: tokenFor("u2") });
    c.setOpen(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(posts()).toHaveLength(0);
    c.identify(tokenFor("u1"));
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toMatchObject({ visitorSessionId: "mine", userToken: tokenFor("u1") });
  });

  it("keeps the conversation on a refreshed token of the same user; logout forgets it and goes anonymous", async () => {
    const { c } = await widget({ userToken: tokenFor("u1") });
    await sendOne(c);
    c.identify(tokenFor("u1", "-refreshed"));
    expect(store.get("tala:session:asst:user:u1")).toBe("s-new");
    expect(posts()).toHaveLength(1);
    c.logout();
    expect(c.state.verified).toBe(false);
    expect(store.has("tala:session:asst:user:u1")).toBe(false);
    await sendOne(c);
    expect(posts()).toHaveLength(2);
    expect(posts()[1]!.body!.userToken).toBeUndefined();
    expect(new URL(sockets.at(-1)!).searchParams.has(visitorIdentity.socketQuery)).toBe(false);
    expect(store.get("tala:session:asst")).toBe("s-new");
  });

  it("says a refused token plainly, fires identity-invalid and never falls back to an anonymous session", async () => {
    sessionsAnswer = () => json({ error: visitorIdentityMessages.tokenExpired, code: "UNAUTHORIZED" }, 401);
    const { c, emit } = await widget({ userToken: tokenFor("u1") });
    await sendOne(c);
    expect(posts()).toHaveLength(1);
    await vi.waitFor(() => expect(c.state.notice).toMatchObject({ text: widgetStrings.en.tokenExpired, blocking: true }));
    expect(emit).toHaveBeenCalledWith("error", { error: widgetStrings.en.tokenExpired, reason: "identity-invalid" });
    expect(store.size).toBe(0);
    // A new token from the host clears the refusal and opens with it.
    sessionsAnswer = (body) => session(`s-${body.userToken === tokenFor("u1", "2") ? "ok" : "?"}`);
    c.identify(tokenFor("u1", "2"));
    expect(c.state.notice).toBeNull();
  });

  it("lists their conversations with the token header, and reopens one with its id and the token", async () => {
    const token = tokenFor("u1");
    const { c } = await widget({ userToken: token });
    c.setOpen(true);
    await c.showConversations();
    const get = sent.find((s) => s.path === widgetApiPaths.conversations)!;
    expect(get.body).toBeNull();
    expect(get.headers[visitorIdentity.tokenHeader]).toBe(token);
    expect(c.state.list?.map((v) => v.sessionId)).toEqual(["old2", "old1"]);
    await c.reopen("old1");
    expect(c.state.list).toBeNull();
    expect(posts().at(-1)!.body).toMatchObject({ visitorSessionId: "old1", userToken: token });
    expect(store.get("tala:session:asst:user:u1")).toBe("s-old1");
  });

  it("offers no Conversations view to an anonymous visitor", async () => {
    const { c } = await widget();
    expect(c.state.verified).toBe(false);
    await c.showConversations();
    expect(sent.some((s) => s.path === widgetApiPaths.conversations)).toBe(false);
  });
});

describe("proof-of-work", () => {
  const challenge = (id: string) => ({ challenge: `chal-${id}`, difficulty: 10 });

  it("solves a 428's challenge and sends the same body again with the proof", async () => {
    sessionsAnswer = (body, n) => (n === 1 ? json({ error: "Checking", code: "CHALLENGE_REQUIRED", challenge: challenge("a") }, 428) : session("s-proved"));
    const { c } = await widget();
    await sendOne(c);
    const [first, second] = posts();
    expect(posts()).toHaveLength(2);
    const { proof, ...rest } = second!.body as { proof: { challenge: string; nonce: string } };
    expect(rest).toEqual(first!.body);
    expect(proof.challenge).toBe("chal-a");
    expect(proof.nonce.length).toBeLessThanOrEqual(32);
    expect(zeroBits(`chal-a:${proof.nonce}`)).toBeGreaterThanOrEqual(10);
    expect(createWidgetSessionBody.parse(second!.body).proof).toEqual(proof);
    expect(c.state.notice).toBeNull();
    expect(c.state.status).toBeNull();
    expect(store.get("tala:session:asst")).toBe("s-proved");
  });

  it("solves once more when a 403 brings a fresh challenge, then gives up showing the server's text", async () => {
    sessionsAnswer = (_body, n) =>
      n === 1
        ? json({ error: "Checking", code: "CHALLENGE_REQUIRED", challenge: challenge("a") }, 428)
        : json({ error: botDefenceMessages.proofRefused, code: "FORBIDDEN", challenge: challenge(String(n)) }, 403);
    const { c, emit } = await widget();
    await sendOne(c);
    expect(posts()).toHaveLength(3);
    expect((posts()[2]!.body as { proof: { challenge: string } }).proof.challenge).toBe("chal-2");
    expect(c.state.notice?.text).toBe(botDefenceMessages.proofRefused);
    expect(emit).toHaveBeenCalledWith("error", expect.objectContaining({ error: botDefenceMessages.proofRefused }));
    expect(c.state.messages[0]!.status).toBe("failed");
  });

  it("does not spend the visitor's battery on an absurd difficulty", async () => {
    sessionsAnswer = () => json({ error: "Checking", code: "CHALLENGE_REQUIRED", challenge: { challenge: "x", difficulty: 60 } }, 428);
    const { c } = await widget();
    await sendOne(c);
    expect(posts()).toHaveLength(1);
    expect(c.state.notice?.text).toBe("Checking");
  });
});

describe("a chunk that does not load", () => {
  it("leaves a working widget in English with a clear message and a retry (same nonce as the core)", async () => {
    // What build.mjs stamps into widget-core.js.
    vi.stubGlobal("__TALA_CHUNKS__", "01234567");
    const { c, emit } = await widget({ locale: "fr" });
    expect(c.state.config).not.toBeNull();
    expect(c.state.locale).toBe("en");
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({ src: `${HOST}/widget-chunks/fr.01234567.js`, nonce: "n0nce" });
    expect(c.state.notice?.text).toBe(enWidgetStrings.partFailed);
    expect(emit).toHaveBeenCalledWith("error", { error: enWidgetStrings.partFailed });
    // Retry asks for the script again; once it is there the panel speaks French.
    (globalThis as unknown as Record<string, Record<string, unknown>>)[CHUNK_GLOBAL]!.fr = { strings: frWidgetStrings };
    c.state.notice!.redo!();
    await vi.waitFor(() => expect(c.state.locale).toBe("fr"));
    expect(c.t.openChat).toBe(frWidgetStrings.openChat);
    delete (globalThis as unknown as Record<string, Record<string, unknown>>)[CHUNK_GLOBAL]!.fr;
  });
});
