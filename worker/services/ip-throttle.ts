import { widget } from "../../contract";
import type { Env, RateLimitBinding } from "../env";
import { windowEnd, type RateLimitResult } from "./rate-limit-window";

/**
 * The per-IP abuse throttles of minute windows, on Cloudflare's Workers Rate Limiting binding
 * (wrangler.toml `[[ratelimits]]`, limits equal to the contract's `widget.throttles`): counted
 * per Cloudflare location, so approximate by design, which is right for abuse control. Business
 * limits (per session, per day, budgets, the guest quota) stay exact in their objects, and longer
 * windows in the RateLimiter object (services/rate-limit.ts).
 *
 * The binding answers only whether the call passes: `resetAt` is the end of the current minute
 * window (so Retry-After is at most its length), and there is no `remaining` to give.
 */
export type IpThrottleResult = Pick<RateLimitResult, "allowed" | "resetAt">;

/**
 * The binding is always configured (a missing one is a configuration error and throws); a call
 * to it that throws lets the request through, logged: an abuse throttle must not take the widget down.
 */
async function consumeOnBinding(binding: RateLimitBinding, throttle: string, ip: string, windowMs: number, now: number): Promise<IpThrottleResult> {
  const resetAt = windowEnd(now, windowMs);
  if (!binding) throw new Error(`the ${throttle} rate-limit binding is not configured (wrangler.toml [[ratelimits]])`);
  try {
    const { success } = await binding.limit({ key: ip });
    return { allowed: success, resetAt };
  } catch (error) {
    console.error(JSON.stringify({ event: "ip-throttle-failed", throttle, error: String(error) }));
    return { allowed: true, resetAt };
  }
}

/** A widget visitor message from `ip`, across every assistant (contract `widget.throttles.message`). */
export const consumeIpMessage = (env: Pick<Env, "WIDGET_MESSAGE_IP_LIMITER">, ip: string, now = Date.now()) =>
  consumeOnBinding(env.WIDGET_MESSAGE_IP_LIMITER, "widget-message", ip, widget.throttles.message.windowMs, now);

/** An answer rating from `ip`, across every assistant (`widget.throttles.feedback`): its own throttle, so rating never costs a message. */
export const consumeIpFeedback = (env: Pick<Env, "WIDGET_FEEDBACK_IP_LIMITER">, ip: string, now = Date.now()) =>
  consumeOnBinding(env.WIDGET_FEEDBACK_IP_LIMITER, "widget-feedback", ip, widget.throttles.feedback.windowMs, now);
