// The webhooks bench's recording step: the assistant's own SQLite schema and the hub's real
// recorder (worker/assistant/hub-webhooks.ts, with the named-alarm scheduler arming its outbox
// alarm) in a Durable Object under Miniflare. One RPC runs `n` answers saved the way finishTurn
// saves them, with or without `recordAnswer` after each; the bench times the RPCs from Node and
// takes the difference per answer. Bundled by bench/webhooks.mjs; nothing here ships.
import { DurableObject } from "cloudflare:workers";
import { AlarmScheduler } from "../../worker/durable-objects/alarm-scheduler";
import { HubWebhooks } from "../../worker/assistant/hub-webhooks";
import { migrateAssistantStorage } from "../../worker/assistant/storage-migrations";
import { VisitorStore } from "../../worker/assistant/visitor-store";
import { WebhookStore } from "../../worker/assistant/webhook-store";

type Op = { op: "endpoints"; count: number } | { op: "answers"; n: number; record: boolean };

const SESSION = "bench-session";

export class BenchRecorder extends DurableObject {
  readonly store: VisitorStore;
  readonly webhooks: HubWebhooks;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    migrateAssistantStorage(ctx.storage);
    this.store = new VisitorStore(ctx.storage, "bench-assistant");
    const alarms = new AlarmScheduler<"webhook-outbox">(ctx.storage, { "webhook-outbox": () => undefined });
    this.webhooks = new HubWebhooks("bench-assistant", ctx.storage, env as never, (at) => alarms.schedule("webhook-outbox", at));
    if (!this.store.session(SESSION)) this.store.createSession({ id: SESSION, referrer: "https://shop.example/help", origin: "https://shop.example", userAgent: "bench", locale: "en", startedAt: Date.now() } as never);
  }

  /** The outbox alarm is armed as in the hub; the bench never lets it deliver. */
  override async alarm(): Promise<void> {}

  override async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as Op;
    if (body.op === "endpoints") {
      const hooks = new WebhookStore(this.ctx.storage);
      for (const e of hooks.endpoints()) hooks.deleteEndpoint(e.id);
      for (let i = 0; i < body.count; i++) {
        hooks.insertEndpoint({ id: `ep${i}`, url: `https://hooks.example/${i}`, description: "", events: ["message.answered"], sealed: "sealed", hint: "whsec_ab12…", createdAt: Date.now() });
      }
      this.webhooks.load();
      return Response.json({ endpoints: body.count });
    }
    // Keep the outbox as the alarm keeps it (drained), so every run inserts into a small table.
    this.ctx.storage.sql.exec("DELETE FROM webhook_outbox");
    this.ctx.storage.sql.exec("DELETE FROM webhook_events");
    const question = "When are you open on Sundays, and do you ship to Morocco?";
    const answer = "We are open every day from 9:00 to 18:00, Sundays included, and we ship to Morocco in 3 to 5 working days.";
    for (let i = 0; i < body.n; i++) {
      const at = Date.now();
      this.store.saveMessage({ sessionId: SESSION, role: "user", content: question, files: [], sources: [], at });
      const reply = this.store.saveMessage({ sessionId: SESSION, role: "assistant", content: answer, files: [], sources: [], at: at + 1 });
      if (body.record) await this.webhooks.recordAnswer(this.store, SESSION, reply, [], { handoff: false, leadForm: false });
    }
    return Response.json({ n: body.n });
  }
}

export default {
  async fetch(request: Request, env: { RECORDER: DurableObjectNamespace }) {
    const url = new URL(request.url);
    return env.RECORDER.get(env.RECORDER.idFromName(url.searchParams.get("object") ?? "bench")).fetch(request);
  },
};
