import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { FixedWindowCounter, type CounterState, type RateLimitResult } from "../services/rate-limit-window";
import { getAssistantHub } from "../widget/get-assistant-hub";

export type { RateLimitResult } from "../services/rate-limit-window";

/** How long a counter is kept after the end of its last window (or of its last lease). */
const IDLE_MS = 60 * 60 * 1000;

/**
 * The counter handed to an assistant's object (the `holder`, an AssistantHub, reached by its
 * assistant id) for every window up to the one ending at `leaseEnd`; `key` is what the holder
 * files it under (the caller's network). See `consumeLeasable`.
 */
interface Lease {
  holder: string;
  key: string;
  leaseEnd: number;
}

/** What `consumeLeasable` answers: the call's result, and the counter if it was handed over. */
export interface LeasableResult {
  result: RateLimitResult;
  lease: (CounterState & { leaseEnd: number }) | null;
}

/**
 * One fixed-window counter per `<scope>:<key>` (see services/rate-limit.ts). The object lives
 * across windows: each call names the end of its window (`resetAt`) and the counter starts over
 * when a later window begins (services/rate-limit-window.ts). Why not one object per window, as
 * before: every new window was a brand-new object, so the first call of each minute paid for
 * creating it (tens of ms, more at the edge); one object per key stays warm while it is used.
 *
 * A Durable Object runs one call at a time and `consume` awaits nothing between reading and
 * writing, so with a limit of L exactly L calls pass, never L+1, however many arrive at once.
 *
 * Leases (the per-IP message throttle of the widget, assistant/ip-message-leases.ts): a network
 * nearly always talks to one assistant, whose object is awake for the turn anyway, while this
 * object was evicted since the visitor's previous message (a person writes every tens of
 * seconds); waking it was most of what admitting a widget message cost. So `consumeLeasable`
 * hands the counter itself to the assistant's object until the end of a later window: there it
 * counts in its own SQLite, and this object is not called again. The count is always in exactly
 * one place: any call of another caller (or a plain consume/peek/refund) while a lease runs first
 * recalls it (`releaseIpLease` on the holder answers the holder's count and drops its copy), and
 * nothing is counted here until it is back, so the limit stays exact. A counter recalled is not
 * handed out again until the recalled lease would have ended (an address that talks to two
 * assistants stays here, instead of moving back and forth). A lease ends on a window's edge; one
 * over is still recalled by another caller (a holder whose clock is a moment behind would still
 * count in its last window), but a failure then only drops it. A recall that fails while the
 * lease runs refuses the call (the count may be away: never past the limit) and never throws.
 * Counts handed back are merged (same window: the larger; else the later), so one taken in twice
 * (a recall answered again after this object restarted) changes nothing.
 *
 * The alarm forgets the storage once the counter has been idle for `IDLE_MS` after its last window
 * and lease (one alarm per busy hour, not one per window), unless a later one started meanwhile. The
 * alarm's time is kept in memory, so a call reads it from storage at most once per instance.
 */
export class RateLimiter extends DurableObject<Env> {
  private counter = new FixedWindowCounter();
  /** The alarm as this instance knows it: a time, null (none set) or undefined (not read yet). */
  private alarmAt: number | null | undefined;
  private lease: Lease | null;
  /** The end of the last lease recalled: until then the counter stays here. */
  private contestedUntil: number;
  /** A recall under way: every call waits for it (nothing is counted while the count is away); false: it failed. */
  private recalling: Promise<boolean> | null = null;
  /** Whether storage holds a "lease" entry: a lease dropped is written too, or a restart would bring it back. */
  private leaseStored: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The synchronous key-value API of the object's SQLite (the same rows as the async one): a
    // woken object reads its counter before its first call, with no gate to wait on.
    const stored = ctx.storage.kv.get<CounterState | number>("count");
    // Carried over from before windows were recorded (a bare count, e.g. a visitor session's
    // counter, named without a window already): it belongs to the next caller's window.
    this.counter = new FixedWindowCounter(typeof stored === "number" ? { count: stored, resetAt: -1 } : stored);
    const lease = ctx.storage.kv.get<{ lease: Lease | null; contestedUntil: number }>("lease");
    this.lease = lease?.lease ?? null;
    this.contestedUntil = lease?.contestedUntil ?? 0;
    this.leaseStored = lease !== undefined;
  }

  async consume(limit: number, cost: number, resetAt: number): Promise<RateLimitResult> {
    if (!(await this.settle(resetAt, null))) return this.away(resetAt);
    const result = this.counter.consume(limit, cost, resetAt);
    if (result.allowed) {
      this.save();
      await this.armAlarm();
    }
    return result;
  }

  /**
   * `consume`, for a caller that can count by itself (`holder`, an assistant's object): when the
   * call passes and the counter is not contested, the counter is handed to it until the window
   * ending at `leaseEnd` (at least this call's window), with its state after this call.
   * `returned`: the count of a lease the holder gave back whose answer may not have got here (this
   * object restarted during the recall): taken in first (a merge: taking it twice, or while another
   * holder's count is away, is harmless; the recall's count is merged in too).
   */
  async consumeLeasable(
    holder: string,
    key: string,
    limit: number,
    cost: number,
    resetAt: number,
    leaseEnd: number,
    returned: CounterState | null = null,
  ): Promise<LeasableResult> {
    // Taken in first, and kept even when the call is then refused: the holder forgets it once answered.
    if (returned) {
      this.counter.merge(returned);
      this.save();
    }
    if (!(await this.settle(resetAt, holder))) return { result: this.away(resetAt), lease: null };
    const result = this.counter.consume(limit, cost, resetAt);
    if (!result.allowed) return { result, lease: null };
    // Contested (a lease was recalled and would still run): the counter stays here.
    const lease = resetAt > this.contestedUntil ? { holder, key, leaseEnd: Math.max(leaseEnd, this.counter.state.resetAt) } : null;
    if (lease) this.lease = lease;
    this.save();
    await this.armAlarm();
    return { result, lease: lease && { ...this.counter.state, leaseEnd: lease.leaseEnd } };
  }

  /**
   * Gives back `cost` a caller consumed and then could not use (a widget message passed its
   * session counter but was refused by the daily one). Never goes below zero; a refund for a
   * window that is already over changes nothing.
   */
  async refund(cost: number, limit: number, resetAt: number): Promise<RateLimitResult> {
    if (!(await this.settle(resetAt, null))) return this.away(resetAt);
    const result = this.counter.refund(cost, limit, resetAt);
    this.save();
    return result;
  }

  async peek(limit: number, resetAt: number): Promise<RateLimitResult> {
    if (!(await this.settle(resetAt, null))) return this.away(resetAt);
    return this.counter.peek(limit, resetAt);
  }

  /** Idle long enough after the last window and lease: forget it; else wait for the idle time of the latest. */
  override async alarm() {
    this.alarmAt = null;
    if (Date.now() < this.keepUntil()) {
      await this.armAlarm();
      return;
    }
    this.counter = new FixedWindowCounter();
    this.lease = null;
    this.contestedUntil = 0;
    this.leaseStored = false;
    await this.ctx.storage.deleteAll();
  }

  /**
   * Brings the count back before a call counts here; false: it could not (a recall failed), and
   * the call counts nothing. A lease asked for again by its own holder (which holds nothing: it
   * never stored it) is just dropped. A lease another caller's call meets is recalled from its
   * holder, even once over: a holder whose clock is a moment behind still counts in the lease's
   * last window, so its copy must go before this object counts the next one (once per lease).
   * A recall that fails keeps a running lease (the holder may still be counting: no call passes
   * here until it is back) and drops a lease that is over (its count no longer matters).
   */
  private async settle(resetAt: number, caller: string | null): Promise<boolean> {
    while (this.recalling) if (!(await this.recalling)) return false;
    const lease = this.lease;
    if (!lease) return true;
    if (lease.holder === caller) {
      this.lease = null;
      this.save();
      return true;
    }
    this.recalling = this.recall(lease, resetAt > lease.leaseEnd);
    try {
      return await this.recalling;
    } finally {
      this.recalling = null;
    }
  }

  /**
   * The holder's count is merged into this one (it went on from it); null: it counted nothing since.
   * False: the holder could not answer and the lease (still running: not `over`) stays; never
   * throws, so neither does the call.
   */
  private async recall(lease: Lease, over: boolean): Promise<boolean> {
    let back: CounterState | null | "failed";
    try {
      back = await getAssistantHub(this.env, lease.holder).releaseIpLease(lease.key);
    } catch (error) {
      back = "failed";
      console.error(JSON.stringify({ event: "ip-lease-recall-failed", holder: lease.holder, over, error: String(error) }));
    }
    if (back === "failed") {
      if (!over) return false;
      back = null;
    }
    if (back) this.counter.merge(back);
    this.lease = null;
    this.contestedUntil = Math.max(this.contestedUntil, lease.leaseEnd);
    this.save();
    return true;
  }

  /** A call met while the count is away and could not be brought back: refused, until the end of its window. */
  private away(resetAt: number): RateLimitResult {
    return { allowed: false, remaining: 0, resetAt: Math.max(resetAt, this.counter.state.resetAt) };
  }

  private keepUntil() {
    return Math.max(this.counter.state.resetAt, this.lease?.leaseEnd ?? 0, this.contestedUntil) + IDLE_MS;
  }

  private save() {
    this.ctx.storage.kv.put("count", this.counter.state);
    if (!this.lease && !this.contestedUntil && !this.leaseStored) return;
    this.ctx.storage.kv.put("lease", { lease: this.lease, contestedUntil: this.contestedUntil });
    this.leaseStored = true;
  }

  private async armAlarm() {
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm();
    if (this.alarmAt !== null) return;
    this.alarmAt = this.keepUntil();
    await this.ctx.storage.setAlarm(this.alarmAt);
  }
}
