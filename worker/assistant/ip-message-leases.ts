import { widget } from "../../contract";
import type { Env } from "../env";
import { FixedWindowCounter, windowEnd, type CounterState, type RateLimitResult } from "../services/rate-limit-window";
import { consumeIpMessage } from "../services/widget/widget-limits";

/** Windows a lease runs, the one it was handed in included: an hour of the per-minute throttle. */
export const IP_LEASE_WINDOWS = 60;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `lease_end` of a lease given back: its count is kept (not counted on) until the counter surely has it. */
const RELEASED = 0;

/** Key-value entry: the UTC day the table was last pruned. */
const PRUNED_KEY = "ip-leases-pruned-day";

/** Key-value entry (after `deleteAll`) of an erased object's count for a network: see `carry`. */
const ERASED_PREFIX = "ip-lease:";

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
 *
 * A lease given back keeps its row, marked released (nothing is counted on it), and a second
 * recall answers the same count: the counter may restart before the first answer got there (it
 * still sees the lease and recalls again). This object's next call to the counter brings the
 * count along (`returned`: the counter may instead see its own holder asking, which holds nothing
 * for all it knows) and drops the row once the counter answered; the counter merges, so a count
 * taken in twice changes nothing. An erased object (its assistant deleted) keeps the counts of
 * the current window in key-value entries (`carry`), so a network does not start over.
 */
export class IpMessageLeases {
  private readonly asking = new Map<string, { revoked: boolean; answer: Promise<unknown> }>();
  /**
   * The UTC day leases that are over were last dropped (a scan of the whole table): once a day,
   * not once per instance (the object is woken again between a person's messages), so it is kept
   * in storage (key-value entry `PRUNED_KEY`) and read once per instance; undefined: not read yet.
   */
  private prunedDay: number | undefined;

  constructor(
    private readonly storage: Pick<DurableObjectStorage, "sql" | "kv">,
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
      const released = lease?.leaseEnd === RELEASED;
      if (lease && !released) this.drop(ip);
      return this.ask(holder, ip, now, released ? { count: lease.count, resetAt: lease.resetAt } : null);
    }
  }

  /** The counter takes its lease back: the count of the window this object is in, or null (nothing counted here). */
  release(ip: string): CounterState | null {
    const asked = this.asking.get(ip);
    if (asked) asked.revoked = true;
    const lease = this.read(ip);
    if (!lease) return null;
    if (lease.leaseEnd !== RELEASED) this.storage.sql.exec("UPDATE ip_message_leases SET lease_end = ? WHERE ip = ?", RELEASED, ip);
    return { count: lease.count, resetAt: lease.resetAt };
  }

  /**
   * Before the object is erased: the counts of the current window (the only ones a counter still
   * needs), read from the table, or from the entries an earlier erase kept (erase is retried).
   */
  handOver(now: number, erased: boolean): [string, CounterState][] {
    if (erased) return [...this.storage.kv.list<CounterState>({ prefix: ERASED_PREFIX })].map(([key, state]) => [key.slice(ERASED_PREFIX.length), state]);
    try {
      return this.storage.sql
        .exec<{ ip: string; count: number; reset_at: number }>("SELECT ip, count, reset_at FROM ip_message_leases WHERE reset_at > ?", now)
        .toArray()
        .map((row) => [row.ip, { count: row.count, resetAt: row.reset_at }]);
    } catch {
      return []; // never migrated: no table, no lease
    }
  }

  /**
   * After `deleteAll`: what `handOver` read, kept for the counters' recalls (`releaseErased`)
   * until the end of its window; answers that end (for the object's alarm), or null: nothing kept.
   */
  carry(counts: [string, CounterState][]): number | null {
    for (const [ip, state] of counts) this.storage.kv.put(ERASED_PREFIX + ip, state);
    return counts.length ? Math.max(...counts.map(([, state]) => state.resetAt)) : null;
  }

  /** An erased object's alarm: the counts it carried whose window is over are of no use to anyone (nor are the addresses). */
  forgetCarried(now: number) {
    for (const [key, state] of this.storage.kv.list<CounterState>({ prefix: ERASED_PREFIX })) if (state.resetAt <= now) this.storage.kv.delete(key);
  }

  /** An erased object's recall: the count it carried for `ip` (then forgotten), or null. */
  releaseErased(ip: string): CounterState | null {
    const state = this.storage.kv.get<CounterState>(ERASED_PREFIX + ip) ?? null;
    if (state) this.storage.kv.delete(ERASED_PREFIX + ip);
    return state;
  }

  private async ask(holder: string, ip: string, now: number, returned: CounterState | null): Promise<RateLimitResult> {
    const answer = consumeIpMessage(this.env, ip, holder, IP_LEASE_WINDOWS, now, returned);
    const asked = { revoked: false, answer };
    this.asking.set(ip, asked);
    try {
      const { result, lease } = await answer;
      if (lease && !asked.revoked) this.write(ip, lease);
      // The counter took the count given back in (or had it): the row is no longer needed.
      else if (returned) this.storage.sql.exec("DELETE FROM ip_message_leases WHERE ip = ? AND lease_end = ?", ip, RELEASED);
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

  /** Leases whose last window is over count nothing any more (the counter drops them too); nor do released counts of a window over. */
  private prune(now: number) {
    const day = Math.floor(now / DAY_MS);
    this.prunedDay ??= this.storage.kv.get<number>(PRUNED_KEY) ?? -1;
    if (day === this.prunedDay) return;
    this.storage.sql.exec("DELETE FROM ip_message_leases WHERE max(lease_end, reset_at) < ?", now);
    this.storage.kv.put(PRUNED_KEY, day);
    this.prunedDay = day;
  }
}
