import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { experimental_readRawConfig } from "wrangler";
import { widget } from "../../contract";
import type { RateLimitBinding } from "../env";
import { consumeIpFeedback, consumeIpMessage } from "./ip-throttle";

const MINUTE = 60_000;

/** A `[[ratelimits]]` entry of wrangler.toml. */
interface RateLimitConfig {
  name: string;
  namespace_id: string;
  simple: { limit: number; period: number };
}

describe("per-IP minute throttles in wrangler.toml", () => {
  const { rawConfig } = experimental_readRawConfig({ config: fileURLToPath(new URL("../../wrangler.toml", import.meta.url)) });
  const ratelimits = (rawConfig as { ratelimits?: RateLimitConfig[] }).ratelimits ?? [];
  const binding = (name: string) => ratelimits.find((r) => r.name === name);

  it.each([
    ["WIDGET_MESSAGE_IP_LIMITER", widget.throttles.message],
    ["WIDGET_FEEDBACK_IP_LIMITER", widget.throttles.feedback],
  ] as const)("%s has the contract's limit and window", (name, throttle) => {
    expect(binding(name)?.simple).toEqual({ limit: throttle.limit, period: throttle.windowMs / 1000 });
  });

  it("uses only the periods the binding supports and a namespace of its own per throttle", () => {
    for (const r of ratelimits) expect([10, 60]).toContain(r.simple.period);
    for (const r of ratelimits) expect(r.namespace_id).toMatch(/^\d+$/);
    expect(new Set(ratelimits.map((r) => r.namespace_id)).size).toBe(ratelimits.length);
  });
});

describe("consumeIpMessage / consumeIpFeedback", () => {
  afterEach(() => vi.restoreAllMocks());
  const now = 10 * MINUTE + 12_345;
  const env = (message: RateLimitBinding, feedback: RateLimitBinding = message) => ({ WIDGET_MESSAGE_IP_LIMITER: message, WIDGET_FEEDBACK_IP_LIMITER: feedback });

  it("asks the binding under the address and answers until the end of the current minute", async () => {
    const limit = vi.fn(async () => ({ success: false }));
    expect(await consumeIpMessage(env({ limit }), "203.0.113.7", now)).toEqual({ allowed: false, resetAt: 11 * MINUTE });
    expect(limit).toHaveBeenCalledWith({ key: "203.0.113.7" });
    const feedback = vi.fn(async () => ({ success: true }));
    expect(await consumeIpFeedback(env({ limit }, { limit: feedback }), "203.0.113.7", now)).toEqual({ allowed: true, resetAt: 11 * MINUTE });
    expect(feedback).toHaveBeenCalledTimes(1);
  });

  it("lets the call through, logged, when the binding's call fails", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = { limit: async () => Promise.reject(new Error("binding down")) };
    expect(await consumeIpMessage(env(failing), "203.0.113.7", now)).toEqual({ allowed: true, resetAt: 11 * MINUTE });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"event":"ip-throttle-failed"'));
  });

  it("throws when the binding is not configured (a configuration error, not a pass)", async () => {
    const missing = { WIDGET_MESSAGE_IP_LIMITER: undefined as unknown as RateLimitBinding };
    await expect(consumeIpMessage(missing, "203.0.113.7", now)).rejects.toThrow(/not configured/);
  });
});
