import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Epoch ms when the window ends. */
  resetAt: number;
}

/**
 * One fixed-window counter. Each instance is named `<scope>:<key>::<windowStart>` (see
 * services/rate-limit.ts), so it only counts and expires. A Durable Object runs one call at a
 * time and `consume` awaits nothing between reading and writing, so with a limit of L exactly
 * L calls pass, never L+1, however many arrive at once.
 */
export class RateLimiter extends DurableObject<Env> {
  private count = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.count = (await ctx.storage.get<number>("count")) ?? 0;
    });
  }

  async consume(limit: number, cost: number, resetAt: number): Promise<RateLimitResult> {
    if (this.count + cost > limit) return { allowed: false, remaining: Math.max(0, limit - this.count), resetAt };
    this.count += cost;
    void this.ctx.storage.put("count", this.count);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(resetAt + 1000);
    return { allowed: true, remaining: limit - this.count, resetAt };
  }

  /**
   * Gives back `cost` a caller consumed and then could not use (a widget message passed its
   * session counter but was refused by the daily one). Never goes below zero.
   */
  async refund(cost: number, limit: number, resetAt: number): Promise<RateLimitResult> {
    this.count = Math.max(0, this.count - cost);
    void this.ctx.storage.put("count", this.count);
    return { allowed: this.count < limit, remaining: Math.max(0, limit - this.count), resetAt };
  }

  async peek(limit: number, resetAt: number): Promise<RateLimitResult> {
    return { allowed: this.count < limit, remaining: Math.max(0, limit - this.count), resetAt };
  }

  /** The window is over: forget it. */
  override async alarm() {
    this.count = 0;
    await this.ctx.storage.deleteAll();
  }
}
