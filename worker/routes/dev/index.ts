import { Hono, type MiddlewareHandler } from "hono";
import { outboxQuery, type apiKeyResponse, type outboxResponse } from "../../../contract";
import { z } from "zod";
import { d1Log, resetD1Log } from "../../db/latency";
import { isLocal } from "../../env";
import type { AppEnv } from "../../http/context";
import { notFound } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { jsonBody, queryParams } from "../../http/validate";
import { seedDemoAssistant } from "../../services/dev/demo-assistant";
import { runHubTurns } from "../../services/dev/hub-turns";
import { listOutboxEmails } from "../../services/email/list-outbox-emails";
import { getModelProvider } from "../../models";

const hubTurnsBody = z.object({
  key: z.string().min(1).max(200),
  origin: z.string().max(300).optional(),
  sessions: z.array(z.object({ id: z.string().min(1).max(100), ip: z.string().min(1).max(64) })).min(1).max(1000),
  question: z.string().min(1).max(2000),
  turns: z.number().int().min(1).max(1000),
  concurrency: z.number().int().min(1).max(200),
});

const modelFloorBody = z.object({ content: z.string().min(1).max(2000) });

/**
 * Local mode only, and never for a page of another site: a browser sends a CORS-simple POST
 * (text/plain) cross-site without asking, and these tools spend model calls and CPU.
 */
const localOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isLocal(c.env) || c.req.header("sec-fetch-site") === "cross-site") throw notFound();
  await next();
};

/** /api/dev: local-mode tools. Anywhere else they answer 404, exactly like a path that does not exist. */
export function devRoutes() {
  return (
    new Hono<AppEnv>()
      .get("/dev/outbox", localOnly, queryParams(outboxQuery), async (c) => {
        const body: z.infer<typeof outboxResponse> = {
          emails: await listOutboxEmails({ ctx: serviceContext(c), input: c.req.valid("query") }),
        };
        return c.json(body);
      })
      // The home page's live demo: seeds the demo assistant ("Tala Guide") on first call, answers its key.
      .get("/dev/demo-assistant", localOnly, async (c) => {
        const body: z.infer<typeof apiKeyResponse> = { apiKey: await seedDemoAssistant({ ctx: serviceContext(c) }) };
        return c.json(body);
      })
      // The benches' D1 latency mode (db/latency.ts): the queries recorded since the last reset.
      .get("/dev/d1-log", localOnly, (c) => {
        const state = d1Log();
        if (!state) throw notFound();
        return c.json(state);
      })
      .delete("/dev/d1-log", localOnly, (c) => {
        resetD1Log();
        return c.body(null, 204);
      })
      // bench/hub-throughput.mjs: visitor turns straight against one assistant's hub (services/dev/hub-turns.ts).
      .post("/dev/hub-turns", localOnly, jsonBody(hubTurnsBody), async (c) => c.json(await runHubTurns({ ctx: serviceContext(c), input: c.req.valid("json") })))
      // bench/chat-overhead.mjs's model floor: the model's stream through the Worker with none of
      // Tala's turn (no key, session, counter, history or retrieval): what a streamed reply costs
      // the local runtime and tooling by itself, to compare every hot path with.
      .post("/dev/model-floor", localOnly, jsonBody(modelFloorBody), (c) => {
        const provider = getModelProvider(c.env);
        if (!provider) throw notFound();
        const abort = new AbortController();
        const deltas = provider.stream({ messages: [{ role: "user", content: c.req.valid("json").content }], signal: abort.signal });
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            try {
              for await (const delta of deltas) controller.enqueue(encoder.encode(`data: ${JSON.stringify(delta)}\n\n`));
            } catch (error) {
              console.error(JSON.stringify({ event: "model-floor-failed", error: String(error) }));
              controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify("the model failed")}\n\n`));
            }
            controller.close();
          },
          // The bench went away: the model's stream stops too.
          cancel() {
            abort.abort();
          },
        });
        return c.body(body, 200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" });
      })
  );
}
