import { qaLimits, type VisitorSession } from "../../contract";
import { monthKey } from "../budgets/budget-math";
import { BudgetNotices, deliverBudgetNotices } from "../budgets/budget-notices";
import { OwnerBudgetReports } from "../budgets/owner-report";
import { AlarmScheduler } from "../durable-objects/alarm-scheduler";
import type { Env } from "../env";
import type { PublicAssistantRecord } from "../services/public-assistants/to-public-assistant";
import { toVisitorMessage, toVisitorSession } from "../services/visitor-sessions/to-visitor-session";
import { enqueueCrawl } from "../services/web-sources/enqueue-crawl";
import type { Passage } from "../widget/prompt";
import { conversationHandoff, everHandedOff, handoffOf } from "./handoff-store";
import { HubGate, type OpenedHub } from "./hub-gate";
import { HubHandoff } from "./hub-handoff";
import { retentionPass, retentionSettingsChanged } from "./hub-privacy";
import { HubSockets } from "./hub-sockets";
import { retrieveNearIndex, retrieveWithCurated, type BudgetStep } from "./hub-visitor-turn";
import { exactLexicalMatch, HubQa } from "./hub-qa";
import { HubIdentity } from "./identity-secrets";
import { HubWebhooks } from "./hub-webhooks";
import type { VisitorSessionRow, VisitorStore } from "./visitor-store";
import { WebSourceStore } from "./web-source-store";

/** How long after a failed web-sources alarm, or a crawl that could not be queued, the object looks again. */
const RETRY_MS = 60_000;

/** Key-value key of the assistant's id, for a wake without the object's name (AssistantHub's `ownId`). */
export const ASSISTANT_ID_KEY = "assistant-id";

/** Key-value key: when the object carried over what the version before named alarms left (`carryOver`). */
const CARRIED_OVER_KEY = "carried-over";

/** The named alarms of an assistant's object. */
export type HubAlarm = "budget-notices" | "report-to-owner" | "web-sources" | "identity-grace" | "handoff-idle" | "webhook-outbox" | "retention";

/**
 * What an assistant's own object (AssistantHub) is made of, shared by its turn methods and its
 * facets (facets/): its id, storage, the gate (schema, copy of the assistant, legacy move), the
 * visitor identity, the open sockets, the named alarms and the jobs they run. No import from
 * `cloudflare:workers`: the object hands over its state.
 */
export class HubCore {
  readonly gate: HubGate;
  readonly identity: HubIdentity;
  /** The curated answers' matcher, kept in memory between turns (hub-qa.ts). */
  readonly qa = new HubQa();
  readonly sockets: HubSockets;
  /** A person taking over: the inbox's watchers, the relays, the takeovers the object ends itself (hub-handoff.ts). */
  readonly handoff: HubHandoff;
  /** Signed webhooks: the recorder (`record`), the outbox's alarm job, the delivery decisions (hub-webhooks.ts). */
  readonly webhooks: HubWebhooks;
  readonly alarms: AlarmScheduler<HubAlarm>;
  private readonly ownerReports: OwnerBudgetReports;

  constructor(
    readonly assistantId: string,
    readonly ctx: DurableObjectState,
    readonly env: Env,
  ) {
    this.gate = new HubGate(ctx, env);
    this.identity = new HubIdentity(ctx.storage, env);
    this.sockets = new HubSockets(ctx.storage, env);
    this.handoff = new HubHandoff(assistantId, ctx.storage, env, this.sockets);
    this.ownerReports = new OwnerBudgetReports(env, ctx.storage);
    this.alarms = new AlarmScheduler<HubAlarm>(ctx.storage, {
      "budget-notices": () => this.deliverBudgetNotices(),
      "report-to-owner": () => this.reportToOwner(),
      "web-sources": (now) => this.sourcesDue(now),
      "identity-grace": () => this.identityGraceEnded(),
      "handoff-idle": (now) => this.handoffIdle(now),
      "webhook-outbox": (now) => this.webhookOutbox(now),
      retention: async (now) => void (await retentionPass(this, now)),
    });
    this.webhooks = new HubWebhooks(assistantId, ctx.storage, env, (at) => this.alarms.schedule("webhook-outbox", at));
  }

  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }

  /**
   * Once, when the object starts (inside blockConcurrencyWhile): the storage migrations, and the
   * alarms that the stored state calls for (an object whose alarm was set by hand before the
   * scheduler finds its jobs again). An erased object creates nothing.
   */
  async start(): Promise<void> {
    if (this.gate.erased()) return forgetIpLeases(this.storage);
    this.gate.migrate();
    // Kept for a wake that comes without the object's name (a local alarm after a restart).
    if (this.storage.kv.get(ASSISTANT_ID_KEY) !== this.assistantId) this.storage.kv.put(ASSISTANT_ID_KEY, this.assistantId);
    if (this.storage.kv.get(CARRIED_OVER_KEY) === undefined) await this.carryOver();
    this.webhooks.load();
    await retentionSettingsChanged(this);
  }

  /**
   * Once in an object's life: what a version before named alarms left (its alarm, set by hand,
   * has no named job: the jobs the stored state calls for are scheduled; the per-IP lease entries go).
   */
  private async carryOver() {
    forgetIpLeases(this.storage);
    const now = Date.now();
    const due: [HubAlarm, number | null][] = [
      ["budget-notices", new BudgetNotices(this.storage).nextDue()],
      ["identity-grace", this.identity.graceEnd()],
      ["web-sources", new WebSourceStore(this.storage).nextWake(now)],
    ];
    for (const [name, at] of due) if (at !== null) await this.alarms.schedule(name, at);
    this.storage.kv.put(CARRIED_OVER_KEY, now);
  }

  /** The gate of every data call: null when the assistant no longer exists. */
  open(): Promise<OpenedHub | null> {
    return this.gate.open(this.assistantId);
  }

  /**
   * The passages and curated answer for `question` at the assistant's strictness (the knowledge
   * search skipped when an exact pair replies word for word): the Playground's, which counts
   * nothing (`countUse` false), and /v1's, which counts the pair's use.
   */
  async retrieveWithCurated(record: PublicAssistantRecord, query: string, question: string, options: { countUse: boolean }) {
    const strictness = record.config.qaStrictness ?? qaLimits.defaultStrictness;
    const exact = this.exactCurated(record, question);
    return retrieveWithCurated(this.env, this.storage, this.qa, { assistantId: this.assistantId, query, question, strictness, skipKnowledge: exact !== null, countUse: options.countUse });
  }

  /** The `exact` pair `question` lexically gets at the assistant's strictness, or null (a matching failure is logged, never thrown). */
  exactCurated(record: PublicAssistantRecord, question: string) {
    try {
      return exactLexicalMatch(this.storage, this.qa, question, record.config.qaStrictness ?? qaLimits.defaultStrictness);
    } catch (error) {
      console.error(JSON.stringify({ event: "qa-match-failed", assistantId: this.assistantId, error: String(error) }));
      return null;
    }
  }

  /** The passages for `query` next to the index (null when retrieval failed). */
  retrieve(query: string, question = query): Promise<Passage[] | null> {
    return retrieveNearIndex(this.env, this.storage, this.assistantId, { query, question });
  }

  /**
   * After a turn's budget step (hub-visitor-turn.ts `BudgetStep`): the e-mails and the report to
   * the owner's room are scheduled, never run on the visitor's path.
   */
  async afterBudget(record: PublicAssistantRecord | undefined, step: BudgetStep): Promise<void> {
    // Never fails the turn: its message is counted and saved already (a retry would count it
    // twice). A notice still waiting is found again when the object next starts.
    try {
      const now = Date.now();
      if (step.notice) await this.alarms.schedule("budget-notices", now);
      if (!record) return;
      const month = monthKey(step.at);
      const at = step.report ? this.ownerReports.add(now, month) : step.recheck ? this.ownerReports.recheck(now, month) : null;
      if (at !== null) await this.alarms.schedule("report-to-owner", at);
    } catch (error) {
      console.error(JSON.stringify({ event: "budget-step-schedule-failed", assistantId: this.assistantId, error: String(error) }));
    }
  }

  /**
   * A secret stopped verifying at once: sockets are verified only when they connect, so the open
   * sockets of signed-in visitors' sessions close (with a code the widget reconnects on) and the
   * reconnect is verified with the secrets in force. Never throws (logged).
   */
  async reverifySockets(store: VisitorStore): Promise<void> {
    try {
      await this.sockets.reverify((sessionId) => Boolean(store.session(sessionId)?.visitorSub));
    } catch (error) {
      console.error(JSON.stringify({ event: "identity-socket-reverify-failed", assistantId: this.assistantId, error: String(error) }));
    }
  }

  /** Sessions with their messages (a person's too), as the owner reads them, with their handoff and the address a visitor left. */
  withMessages(opened: OpenedHub, rows: VisitorSessionRow[]): VisitorSession[] {
    const messages = opened.store.messagesOf(rows.map((r) => r.id));
    const settings = opened.assistant.record.config.handoff;
    return rows.map((r) => {
      const contactEmail = handoffOf(r).contactEmail;
      return {
        ...toVisitorSession(r, (messages.get(r.id) ?? []).map(toVisitorMessage)),
        ...(everHandedOff(r) ? { handoff: conversationHandoff(r, settings) } : {}),
        ...(contactEmail ? { contactEmail } : {}),
      };
    });
  }

  /** The web sources' alarm: after an operation that starts, ends or reschedules a sync. */
  async wakeForSources(mode: "if-sooner" | "always" = "if-sooner"): Promise<void> {
    const at = new WebSourceStore(this.storage).nextWake(Date.now());
    if (at !== null) await this.alarms.schedule("web-sources", at, mode);
  }

  // ── Alarm jobs ────────────────────────────────────────────────────────────────────────────────

  /** Sends the waiting budget e-mails; what failed is retried when its backoff ends. */
  private async deliverBudgetNotices() {
    if (this.gate.erased()) return;
    const next = await deliverBudgetNotices(this.env, this.storage);
    if (next !== null) await this.alarms.schedule("budget-notices", next);
  }

  private async reportToOwner() {
    const opened = await this.open();
    if (opened) await this.ownerReports.send(this.assistantId, opened.assistant.record.userId);
  }

  /** Scheduled syncs that are due, and syncs whose run was lost, are queued again. */
  private async sourcesDue(now: number) {
    if (!(await this.open())) return;
    const store = new WebSourceStore(this.storage);
    const { resync, stalled } = store.due(now);
    const runs = [...stalled];
    for (const sourceId of resync) {
      const started = store.startSync(sourceId, now);
      if (started.ok) runs.push({ sourceId, syncId: started.syncId });
    }
    const queued = await enqueueCrawl(this.env, runs.map((r) => ({ assistantId: this.assistantId, ...r })));
    // Not queued: look again in a minute (the syncs stay queued, then count as stalled).
    if (!queued) await this.alarms.schedule("web-sources", now + RETRY_MS);
    else await this.wakeForSources("always");
  }

  /** After an owner's write (`configChanged`): what the settings schedule (a takeover's idle end, the retention pass). */
  async settingsChanged(): Promise<void> {
    await this.handoffSettingsChanged();
    await retentionSettingsChanged(this);
  }

  /**
   * After an owner's write: the idle end is armed on the settings now, so a takeover begun while
   * it was off (or longer) still ends by itself.
   */
  async handoffSettingsChanged(now = Date.now()) {
    // Not through open(): this runs inside an owner write, which must not wait on another call's
    // D1 read of the copy. While a person has a conversation, the alarm looks at once; it ends
    // what is due under the new settings and arms itself for the next (hub-handoff.ts endIdle).
    if (this.gate.erased()) return;
    const taken = this.storage.sql.exec("SELECT 1 FROM visitor_sessions WHERE handoff_state = 'taken' LIMIT 1").toArray().length > 0;
    if (taken) await this.alarms.schedule("handoff-idle", now + 1000);
  }

  /** Recorded webhook events go to the queue (hub-webhooks.ts `flush`); an erased assistant's object has none. */
  private async webhookOutbox(now: number) {
    if (await this.open()) await this.webhooks.flush(now);
  }

  /** Takeovers idle past the owner's `idleEndMinutes` end; the visitor and the owner are told (hub-handoff.ts). */
  private async handoffIdle(now: number) {
    const opened = await this.open();
    if (opened) await this.handoff.endIdle(opened, this.alarms, now);
  }

  /**
   * The previous identity secret's grace ran out: the signed-in visitors' sockets are verified
   * again (once). An alarm that comes before the grace's end (the scheduler runs the earliest job
   * when the alarm fires, whatever this clock reads) keeps the end scheduled.
   */
  private async identityGraceEnded() {
    if (!this.identity.takeEndedGrace()) {
      const end = this.identity.graceEnd();
      if (end !== null) await this.alarms.schedule("identity-grace", end);
      return;
    }
    const opened = await this.open();
    if (opened) await this.reverifySockets(opened.store);
  }
}

/**
 * The assistant's id: the object's name (every stub is made by `idFromName(assistantId)`), or,
 * for a wake that comes without it (a local alarm after a restart, an alarm set before names
 * were passed on), the id the object stored when it last started with its name (HubCore.start),
 * or the one an earlier version stored.
 */
export function ownId(ctx: DurableObjectState): string {
  if (ctx.id.name) return ctx.id.name;
  const stored = ctx.storage.kv.get<string>(ASSISTANT_ID_KEY);
  if (stored) return stored;
  try {
    const [row] = ctx.storage.sql.exec("SELECT value FROM meta WHERE key = 'assistant_id'").toArray();
    if (row) return String(row.value);
  } catch {
    // No meta table yet: a new object, which always has a name.
  }
  throw new Error("an assistant's object is reached by idFromName(assistantId)");
}

/**
 * Key-value entries of the per-IP message counter an earlier version leased to this object (the
 * counter is on the Rate Limiting binding now): an erased object's carried counts (addresses it
 * must not keep) and the day it last pruned them. Removed when the object starts.
 */
function forgetIpLeases(storage: DurableObjectStorage) {
  for (const [key] of storage.kv.list({ prefix: "ip-lease:" })) storage.kv.delete(key);
  if (storage.kv.get("ip-leases-pruned-day") !== undefined) storage.kv.delete("ip-leases-pruned-day");
}
