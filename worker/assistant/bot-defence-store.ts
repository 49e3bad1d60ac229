import { botDefence, insightsLimits, type BotDefenceMode } from "../../contract";
import { spikeNetworkOf } from "../widget/proof-of-work";
import { utcDay } from "./visitor-store";

/**
 * The bot defence's state in an assistant's own Durable Object (AssistantHub, SQLite; tables of
 * the migration `0008_bot_defence`). Synchronous, like the other stores: a check and the writes
 * that follow it run with no await in between, so they are exact under any concurrency.
 *
 * - `defence_counts`: new sessions per address, per network (/24, IPv6 /48) and per user agent,
 *   and visitors' messages per address, in one-minute buckets; the spike window is the last
 *   `botDefence.spikeWindowMs` of buckets (the current minute included, so 10–11 minutes).
 *   Buckets older than that are deleted once a minute (on the first count of a new minute).
 * - `spent_challenges`: the ids of challenges that started a session, kept until they expire
 *   (expired ones are deleted on every spend), so one solved challenge starts one session.
 * - `defence_days`: per UTC day, new sessions asked for a proof (428) and proofs refused (403),
 *   kept `insightsLimits.daysKept` days like the other insights.
 * No import from `cloudflare:workers`.
 */

const BUCKET_MS = 60 * 1000;
const WINDOW_BUCKETS = Math.ceil(botDefence.spikeWindowMs / BUCKET_MS);
/** A user agent is counted by its first characters (the hub stores as many of a session's). */
const USER_AGENT_CHARS = 512;

type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;
type CountKind = "session-address" | "session-network" | "session-agent" | "message-address";

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const bucketOf = (now: number) => Math.floor(now / BUCKET_MS);

/** Who is starting a session: the caller's address (clientIp) and user agent. */
export interface SessionCaller {
  address: string;
  userAgent: string;
}

/**
 * The proof a new session came with, as the worker verified it (signature, expiry, address, bits):
 * `difficulty` is the bits its signed challenge asked, so a challenge issued before a spike does
 * not pass once the spike asks for more.
 */
export type SessionProof = { valid: true; id: string; expiresAt: number; difficulty: number } | { valid: false };

/** `admitNewSession`'s answer: go on, or ask for a (new) proof of `difficulty` bits. */
export type ProofGate = { pass: true } | { pass: false; refused: boolean; difficulty: number };

/** Whether a new session needs a proof, and how many bits. */
export type ProofNeed = { needed: false } | { needed: true; difficulty: number; spike: boolean };

export class BotDefenceStore {
  /** The last bucket whose old rows were pruned by this instance (prunes at most once a minute). */
  private static prunedBucket = new WeakMap<object, number>();

  constructor(private readonly storage: SqlHost) {}

  private get sql() {
    return this.storage.sql;
  }

  /**
   * Whether a new session from `caller` needs a proof: always in mode "always" (spike bits when a
   * spike is on, normal bits otherwise); in mode "auto" only when, in the window, this address
   * started `spikeThresholds.address` sessions or more, its network `network`, its user agent
   * `userAgent`, or this address sent `messageSpikeThreshold` messages or more (so the next one
   * would exceed them).
   */
  need(mode: BotDefenceMode, caller: SessionCaller, now = Date.now()): ProofNeed {
    const spike = this.spike(caller, now);
    if (spike) return { needed: true, difficulty: botDefence.difficultyBits.spike, spike: true };
    if (mode === "always") return { needed: true, difficulty: botDefence.difficultyBits.normal, spike: false };
    return { needed: false };
  }

  /**
   * The proof step of a new session, synchronous (check, spend and count with no await between,
   * so a burst of concurrent starts cannot all pass under the threshold): a verified proof
   * (`proof.valid`, checked by the worker) is spent here, once, and lets the session through when
   * a proof is needed. Without one, a needed proof answers `refused: false` (a 428, counted as
   * challenged); a refused or already spent one `refused: true` (a 403, counted as refused). When
   * no proof is needed, whatever was sent is not held against the visitor. A session that passes
   * is counted on its address, network and user agent at once (even if the per-IP throttle then
   * refuses it: no refunds, as the message counters).
   */
  admitNewSession(mode: BotDefenceMode, caller: SessionCaller, proof: SessionProof | undefined, now = Date.now()): ProofGate {
    const need = this.need(mode, caller, now);
    // A proof of fewer bits than asked now is refused, and not spent (a fresh challenge follows).
    const enough = proof?.valid === true && (!need.needed || proof.difficulty >= need.difficulty);
    const proven = enough && this.spend(proof.id, proof.expiresAt, now);
    if (proven || !need.needed) {
      this.countSession(caller, now);
      return { pass: true };
    }
    if (proof) this.countRefused(now);
    else this.countChallenged(now);
    return { pass: false, refused: Boolean(proof), difficulty: need.difficulty };
  }

  private spike(caller: SessionCaller, now: number): boolean {
    const t = botDefence.spikeThresholds;
    return (
      this.windowCount("session-address", caller.address, now) >= t.address ||
      this.windowCount("session-network", spikeNetworkOf(caller.address), now) >= t.network ||
      this.windowCount("session-agent", agentKey(caller.userAgent), now) >= t.userAgent ||
      this.windowCount("message-address", caller.address, now) >= botDefence.messageSpikeThreshold
    );
  }

  /** A new session passed the gate: counted on its address, network and user agent. */
  countSession(caller: SessionCaller, now = Date.now()) {
    this.storage.transactionSync(() => {
      this.add("session-address", caller.address, now);
      this.add("session-network", spikeNetworkOf(caller.address), now);
      this.add("session-agent", agentKey(caller.userAgent), now);
    });
  }

  /** A visitor's message was admitted from `address` (a message spike turns proofs on for that address's new sessions). */
  countMessage(address: string, now = Date.now()) {
    this.add("message-address", address, now);
  }

  /**
   * Records a verified challenge as spent; false when it was spent already (a replay) or has
   * expired by this object's clock: the worker checked its time a moment earlier, and the record
   * of its first use goes at its expiry, so spending it after that would let it start a session
   * again. Expired records go first.
   */
  spend(id: string, expiresAt: number, now = Date.now()): boolean {
    if (expiresAt <= now) return false;
    this.sql.exec("DELETE FROM spent_challenges WHERE expires_at <= ?", now);
    const inserted = this.sql.exec("INSERT INTO spent_challenges (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id", id, expiresAt).toArray();
    return inserted.length > 0;
  }

  /** A 428 was answered (a new session was asked for a proof). */
  countChallenged(now = Date.now()) {
    this.addToDay(utcDay(now), 1, 0);
  }

  /** A 403 was answered (a proof was refused). */
  countRefused(now = Date.now()) {
    this.addToDay(utcDay(now), 0, 1);
  }

  /** Challenged and refused over the last `days` UTC days up to `now`'s. */
  totals(days: number, now = Date.now()): { challenged: number; refused: number } {
    const today = utcDay(now);
    const row = this.sql
      .exec("SELECT coalesce(sum(challenged), 0) AS c, coalesce(sum(refused), 0) AS r FROM defence_days WHERE day > ? AND day <= ?", today - days, today)
      .one();
    return { challenged: num(row.c), refused: num(row.r) };
  }
  private windowCount(kind: CountKind, key: string, now: number): number {
    const current = bucketOf(now);
    return num(
      this.sql
        .exec("SELECT coalesce(sum(count), 0) AS n FROM defence_counts WHERE kind = ? AND key = ? AND bucket > ? AND bucket <= ?", kind, key, current - WINDOW_BUCKETS, current)
        .one().n,
    );
  }

  private add(kind: CountKind, key: string, now: number) {
    const bucket = bucketOf(now);
    this.pruneBuckets(bucket);
    this.sql.exec(
      "INSERT INTO defence_counts (kind, key, bucket, count) VALUES (?, ?, ?, 1) ON CONFLICT (kind, key, bucket) DO UPDATE SET count = count + 1",
      kind,
      key,
      bucket,
    );
  }

  /** Buckets out of the window go, once per minute per object (the table stays one window deep). */
  private pruneBuckets(bucket: number) {
    const seen = BotDefenceStore.prunedBucket.get(this.storage);
    if (seen === bucket) return;
    this.sql.exec("DELETE FROM defence_counts WHERE bucket <= ?", bucket - WINDOW_BUCKETS);
    BotDefenceStore.prunedBucket.set(this.storage, bucket);
  }

  private addToDay(day: number, challenged: number, refused: number) {
    const updated = this.sql
      .exec("UPDATE defence_days SET challenged = challenged + ?, refused = refused + ? WHERE day = ? RETURNING day", challenged, refused, day)
      .toArray();
    if (updated.length) return;
    this.sql.exec("INSERT INTO defence_days (day, challenged, refused) VALUES (?, ?, ?)", day, challenged, refused);
    // The first count of a day: days past what the insights show go.
    this.sql.exec("DELETE FROM defence_days WHERE day <= ?", day - insightsLimits.daysKept);
  }
}

const agentKey = (userAgent: string) => userAgent.slice(0, USER_AGENT_CHARS);
