import type { Context } from "hono";

/** The caller's IP as Cloudflare reports it; a fixed value locally, where there is no header. */
export function clientIp(c: Context): string {
  return c.req.header("cf-connecting-ip") ?? c.req.header("x-real-ip") ?? "127.0.0.1";
}
