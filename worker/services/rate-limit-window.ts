/**
 * The arithmetic of one fixed-window counter, outside the Durable Object so it is unit-tested
 * without `cloudflare:workers`. A call names the end of its window (`resetAt`): a later window
 * starts the count over, an earlier one (a caller whose clock read an instant before the window
 * turned) counts in the current window, so nothing is ever admitted past the limit.
 */

/** The end of the window of `now` (windows are aligned on multiples of `windowMs` since the epoch). */
export const windowEnd = (now: number, windowMs: number) => now - (now % windowMs) + windowMs;

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Epoch ms when the window ends. */
  resetAt: number;
}

export interface CounterState {
  count: number;
  /** End of the window `count` belongs to (0: none yet; -1: unknown, a count kept before windows were recorded). */
  resetAt: number;
}

export class FixedWindowCounter {
  state: CounterState;

  constructor(state: CounterState = { count: 0, resetAt: 0 }) {
    this.state = { ...state };
  }

  consume(limit: number, cost: number, resetAt: number): RateLimitResult {
    this.roll(resetAt);
    const { count } = this.state;
    const windowEnd = this.state.resetAt;
    if (count + cost > limit) return { allowed: false, remaining: Math.max(0, limit - count), resetAt: windowEnd };
    this.state.count = count + cost;
    return { allowed: true, remaining: limit - this.state.count, resetAt: windowEnd };
  }

  refund(cost: number, limit: number, resetAt: number): RateLimitResult {
    // Only the window the cost was taken in can give it back.
    if (this.state.resetAt === -1) this.state.resetAt = resetAt;
    if (resetAt === this.state.resetAt) this.state.count = Math.max(0, this.state.count - cost);
    return this.peek(limit, resetAt);
  }

  peek(limit: number, resetAt: number): RateLimitResult {
    const count = resetAt > this.state.resetAt && this.state.resetAt !== -1 ? 0 : this.state.count;
    const windowEnd = Math.max(resetAt, this.state.resetAt);
    return { allowed: count < limit, remaining: Math.max(0, limit - count), resetAt: windowEnd };
  }

  /** A call from a later window starts the count over; a count of unknown window is the caller's. */
  private roll(resetAt: number) {
    if (this.state.resetAt === -1) this.state.resetAt = resetAt;
    else if (resetAt > this.state.resetAt) this.state = { count: 0, resetAt };
  }
}
