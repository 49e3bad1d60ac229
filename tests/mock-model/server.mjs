#!/usr/bin/env node
// A scripted OpenAI-compatible model server for tests and benchmarks. It streams tokens like a real
// endpoint and misbehaves on cue, so Tala's model code is tested through the same HTTP path it
// uses in production.
//
// Cues, anywhere in the last user message (or as defaults passed to startMockModel):
//   [[echo]]        reply with the JSON of the messages it received (system prompt included)
//   [[delay:MS]]    wait MS between tokens (default 5)
//   [[ttft:MS]]     wait MS before the first token (default 0)
//   [[tokens:N]]    reply with N tokens
//   [[fail:STATUS]] answer STATUS with an OpenAI-style error body
//   [[break:N]]     send N tokens, then cut the connection without [DONE]
//   [[stall:N]]     send N tokens, then keep the connection open and silent
//   [[take]]        say which streamed request for this same text this is: "… (take 2). …"
//                   (a regenerated reply differs from the first)
//   [[failfirst:STATUS]] answer STATUS to the first streamed request for this text only
//                   (a Retry then succeeds)
// GET /v1/models lists two models; POST /v1/embeddings returns deterministic unit vectors.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const cue = (text, name) => {
  const m = new RegExp(`\\[\\[${name}(?::(\\d+))?\\]\\]`).exec(text);
  return m ? (m[1] === undefined ? true : Number(m[1])) : undefined;
};

/** The reply the mock gives to `text`: words of a fixed sentence, or the echo. */
function replyTokens(messages, text, count, take) {
  if (cue(text, "echo")) return [JSON.stringify(messages)];
  const clean = text.replace(/\[\[[^\]]*\]\]/g, "").trim();
  const taken = take ? ` (take ${take})` : "";
  const words = `Mock reply to: ${clean || "(empty)"}${taken}. This answer is streamed token by token.`.split(/(?<= )/);
  if (typeof count !== "number") return words;
  return Array.from({ length: count }, (_, i) => words[i % words.length]);
}

/** A deterministic embedding: hashed bag of words, L2-normalised. */
function embed(text, dims = 64) {
  const v = new Array(dims).fill(0);
  for (const word of String(text).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
    v[h % dims] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The text of the last user message of a chat request (where the cues are read). */
function lastUserText(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

/**
 * Starts the mock on 127.0.0.1 (port 0 = any free port). `defaults` are cues applied to every
 * request (e.g. { ttft: 100, delay: 10 } for a benchmark). Returns { url, requests, close }.
 */
export async function startMockModel({ port = 0, defaults = {} } = {}) {
  const requests = [];
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname.replace(/^\/v1/, "");
    try {
      if (req.method === "GET" && path === "/models") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: [{ id: "mock-small", object: "model" }, { id: "mock-large", object: "model" }] }));
      }
      if (req.method === "POST" && path === "/embeddings") {
        const body = await readJson(req);
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", model: body.model, data: inputs.map((t, index) => ({ object: "embedding", index, embedding: embed(t) })) }));
      }
      if (req.method !== "POST" || path !== "/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "not found" } }));
      }
      const body = await readJson(req);
      requests.push({ body, headers: req.headers, at: Date.now() });
      const text = lastUserText(body);
      const get = (name) => cue(text, name) ?? defaults[name];
      // This request's rank among the streamed requests for the same text (1 = the first).
      const rank = body.stream ? requests.filter((r) => r.body.stream && lastUserText(r.body) === text).length : 0;

      const fail = get("fail") || (rank === 1 ? get("failfirst") : undefined);
      if (fail) {
        res.writeHead(Number(fail), { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: `mock failure ${fail}`, type: "mock_error" } }));
      }
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const tokens = replyTokens(messages, text, get("tokens"), get("take") ? rank : 0);
      const delay = get("delay") ?? 5;
      const ttft = get("ttft") ?? 0;
      const id = `chatcmpl-mock-${requests.length}`;
      const model = body.model || "mock-small";

      if (!body.stream) {
        if (ttft) await sleep(ttft);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({
          id, object: "chat.completion", created: Math.floor(Date.now() / 1000), model,
          choices: [{ index: 0, message: { role: "assistant", content: tokens.join("") }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: tokens.length, total_tokens: tokens.length + 1 },
        }));
      }

      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      res.flushHeaders();
      const send = (delta, finish = null) =>
        res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      if (ttft) await sleep(ttft);
      send({ role: "assistant", content: "" });
      const breakAt = get("break");
      const stallAt = get("stall");
      for (let i = 0; i < tokens.length; i++) {
        if (typeof breakAt === "number" && i >= breakAt) {
          // Let what was sent reach the client, then cut the connection mid-stream.
          await sleep(20);
          return req.socket.destroy();
        }
        if (typeof stallAt === "number" && i >= stallAt) return; // keep the socket open, silent
        if (res.destroyed) return;
        send({ content: tokens[i] });
        if (delay) await sleep(delay);
      }
      send({}, "stop");
      res.end("data: [DONE]\n\n");
    } catch (err) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    }
  });
  // Keep idle keep-alive connections longer than clients do, so a client never sends a request on a
  // connection the mock is closing at that moment (Node's 5 s default races under load).
  server.keepAliveTimeout = 65_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// `node tests/mock-model/server.mjs [port]` runs it by hand (e.g. LLM_BASE_URL for npm start).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mock = await startMockModel({ port: Number(process.argv[2] ?? 11435) });
  console.log(`mock model listening at ${mock.url}`);
}
