import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { FixedWindowCounter, type CounterState, type RateLimitResult } from "../services/rate-limit-window";

export type { RateLimitResult } from "../services/rate-limit-window";

/** How long a counter is kept after the end of its last window. */
const IDLE_MS = 60 * 60 * 1000;

/**
 * One fixed-window counter per `<scope>:<key>` (see services/rate-limit.ts). The object lives
 * across windows: each call names the end of its window (`resetAt`) and the counter starts over
 * when a later window begins (services/rate-limit-window.ts). Why not one object per window, as
 * before: every new window was a brand-new object, so the first call of each minute paid for
 * creating it (tens of ms, more at the edge); one object per key stays warm while it is used.
 *
 * A Durable Object runs one call at a time and `consume` awaits nothing between reading and
 * writing, so with a limit of L exactly L calls pass, never L+1, however many arrive at once.
 * The alarm forgets the storage once the counter has been idle for `IDLE_MS` after its last window
 * (one alarm per busy hour, not one per window), unless a later window started meanwhile. The
 * alarm's time is kept in memory, so a call reads it from storage at most once per instance.
 */
export class RateLimiter extends DurableObject<Env> {
  private counter = new FixedWindowCounter();
  /** The alarm as this instance knows it: a time, null (none set) or undefined (not read yet). */
  private alarmAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The synchronous key-value API of the object's SQLite (the same rows as the async one): a
    // woken object reads its counter before its first call, with no gate to wait on.
    const stored = ctx.storage.kv.get<CounterState | number>("count");
    // Carried over from before windows were recorded (a bare count, e.g. a visitor session's
    // counter, named without a window already): it belongs to the next caller's window.
    this.counter = new FixedWindowCounter(typeof stored === "number" ? { count: stored, resetAt: -1 } : stored);
  }

  async consume(limit: number, cost: number, resetAt: number): Promise<RateLimitResult> {
    const result = this.counter.consume(limit, cost, resetAt);
    if (result.allowed) {
      this.save();
      await this.armAlarm();
    }
    return result;
  }

  /**
   * Gives back `cost` a caller consumed and then could not use (a widget message passed its
   * session counter but was refused by the daily one). Never goes below zero; a refund for a
   * window that is already over changes nothing.
   */
  async refund(cost: number, limit: number, resetAt: number): Promise<RateLimitResult> {
    const result = this.counter.refund(cost, limit, resetAt);
    this.save();
    return result;
  }

  async peek(limit: number, resetAt: number): Promise<RateLimitResult> {
    return this.counter.peek(limit, resetAt);
  }

  /** Idle long enough after the last window: forget it; else wait for the idle time of the latest window. */
  override async alarm() {
    this.alarmAt = null;
    if (Date.now() < this.counter.state.resetAt + IDLE_MS) {
      await this.armAlarm();
      return;
    }
    this.counter = new FixedWindowCounter();
    await this.ctx.storage.deleteAll();
  }

  private save() {
    this.ctx.storage.kv.put("count", this.counter.state);
  }

  private async armAlarm() {
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm();
    if (this.alarmAt !== null) return;
    this.alarmAt = this.counter.state.resetAt + IDLE_MS;
    await this.ctx.storage.setAlarm(this.alarmAt);
  }
}

declare module "../env" {
  /** What a stub of this object can be asked (`Env`'s namespace names this interface). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the class is the interface
  interface RateLimiterRpc extends RateLimiter {}
}
