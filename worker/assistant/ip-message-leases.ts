import { widget } from "../../contract";
import type { Env } from "../env";
import { FixedWindowCounter, windowEnd, type CounterState, type RateLimitResult } from "../services/rate-limit-window";
import { consumeIpMessage } from "../services/widget/widget-limits";

/** Windows a lease runs, the one it was handed in included: an hour of the per-minute throttle. */
export const IP_LEASE_WINDOWS = 60;

const DAY_MS = 24 * 60 * 60 * 1000;

interface LeaseRow extends CounterState {
  leaseEnd: number;
}

/**
 * The widget's per-IP message throttle (contract `widget.throttles.message`, across every
 * assistant), as an assistant's own object counts it. The throttle's counter is a RateLimiter
 * object per network; when a network's message passes there and nobody else is counting it, the
 * counter is handed to this object for an hour of windows (a lease: RateLimiter.consumeLeasable),
 * and the network's next messages are counted here, in the object's SQLite, in the same
 * synchronous step as the rest of the turn, with no call to the evicted counter (most of what
 * admitting a widget message cost: worker/README.md). When the network writes to another
 * assistant meanwhile, its counter recalls the lease (`release`, from AssistantHub.releaseIpLease):
 * the count goes back and this object asks again from then on. So a count is only ever in one
 * place, and the limit stays exact across assistants.
 *
 * One call to the counter at a time per network: a turn that finds one under way waits for it
 * and then counts here if it brought a lease. A recall that arrives while that call is under way
 * (the counter handed the lease, then another assistant's call recalled it before the answer got
 * here) finds nothing counted here yet and marks the call, whose lease is then not kept.
 */
export class IpMessageLeases {
  private readonly asking = new Map<string, { revoked: boolean; answer: Promise<unknown> }>();
  /** The UTC day this instance last dropped leases that are over: once a day, not once a message. */
  private prunedDay = -1;

  constructor(
    private readonly storage: Pick<DurableObjectStorage, "sql">,
    private readonly env: Env,
  ) {}

  /** Counts one message from `ip` for the assistant `holder` (the object's own assistant). */
  async consume(holder: string, ip: string, now = Date.now()): Promise<RateLimitResult> {
    const { limit, windowMs } = widget.throttles.message;
    const resetAt = windowEnd(now, windowMs);
    this.prune(now);
    for (;;) {
      const lease = this.read(ip);
      if (lease && resetAt <= lease.leaseEnd) return this.countHere(ip, lease, limit, resetAt);
      const asked = this.asking.get(ip);
      if (asked) {
        await asked.answer.catch(() => {});
        continue;
      }
      if (lease) this.drop(ip);
      return this.ask(holder, ip, now);
    }
  }

  /** The counter takes its lease back: the count of the window this object is in, or null (nothing counted here). */
  release(ip: string): CounterState | null {
    const asked = this.asking.get(ip);
    if (asked) asked.revoked = true;
    const lease = this.read(ip);
    if (!lease) return null;
    this.drop(ip);
    return { count: lease.count, resetAt: lease.resetAt };
  }

  private async ask(holder: string, ip: string, now: number): Promise<RateLimitResult> {
    const answer = consumeIpMessage(this.env, ip, holder, IP_LEASE_WINDOWS, now);
    const asked = { revoked: false, answer };
    this.asking.set(ip, asked);
    try {
      const { result, lease } = await answer;
      if (lease && !asked.revoked) this.write(ip, lease);
      return result;
    } finally {
      this.asking.delete(ip);
    }
  }

  private countHere(ip: string, lease: LeaseRow, limit: number, resetAt: number): RateLimitResult {
    const counter = new FixedWindowCounter(lease);
    const result = counter.consume(limit, 1, resetAt);
    if (result.allowed) this.write(ip, { ...counter.state, leaseEnd: lease.leaseEnd });
    return result;
  }

  private read(ip: string): LeaseRow | null {
    const row = this.storage.sql.exec<{ count: number; reset_at: number; lease_end: number }>("SELECT count, reset_at, lease_end FROM ip_message_leases WHERE ip = ?", ip).toArray()[0];
    return row ? { count: row.count, resetAt: row.reset_at, leaseEnd: row.lease_end } : null;
  }

  private write(ip: string, lease: LeaseRow) {
    this.storage.sql.exec("INSERT OR REPLACE INTO ip_message_leases (ip, count, reset_at, lease_end) VALUES (?, ?, ?, ?)", ip, lease.count, lease.resetAt, lease.leaseEnd);
  }

  private drop(ip: string) {
    this.storage.sql.exec("DELETE FROM ip_message_leases WHERE ip = ?", ip);
  }

  /** Leases whose last window is over count nothing any more (the counter drops them too). */
  private prune(now: number) {
    const day = Math.floor(now / DAY_MS);
    if (day === this.prunedDay) return;
    this.storage.sql.exec("DELETE FROM ip_message_leases WHERE lease_end < ?", now);
    this.prunedDay = day;
  }
}
