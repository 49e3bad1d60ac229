// A webhook receiver for the integration tests and the bench: Tala delivers to it over loopback,
// which local mode allows. Each test uses its own name:
//   POST /hook/<name>           records the request (headers, raw body, time) and answers the next
//                               scripted step, or 200 "ok" when none is left
//   POST /__script/<name>       JSON array of steps, replacing the script: { status, headers, body }
//                               answers; { destroy: true } drops the connection without an answer;
//                               { redirect: "<url>", status? } answers a redirect there
//   GET  /__requests/<name>     the recorded requests, oldest first
// The control paths are for tests only.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";

export function startWebhookReceiver() {
  /** @type {Map<string, { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string; at: number }[]>} */
  const requests = new Map();
  /** @type {Map<string, any[]>} */
  const scripts = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const [, kind, name = ""] = url.pathname.split("/");
      if (kind === "__script" && req.method === "POST") {
        scripts.set(name, JSON.parse(body || "[]"));
        return send(res, 204, "");
      }
      if (kind === "__requests") return send(res, 200, JSON.stringify(requests.get(name) ?? []), "application/json");
      if (kind !== "hook") return send(res, 404, "not found");
      const list = requests.get(name) ?? [];
      list.push({ method: req.method ?? "", path: url.pathname + url.search, headers: req.headers, body, at: Date.now() });
      requests.set(name, list);
      const step = scripts.get(name)?.shift();
      if (!step) return send(res, 200, "ok");
      if (step.destroy) return req.socket.destroy();
      if (step.redirect) {
        res.writeHead(step.status ?? 307, { location: step.redirect });
        return res.end();
      }
      res.writeHead(step.status ?? 200, { "content-type": "text/plain", ...(step.headers ?? {}) });
      res.end(step.body ?? "");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done(undefined))) });
    });
  });
}

function send(res, status, body, type = "text/plain") {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}
