import { describe, expect, it } from "vitest";
import { webhookLimits as L, webhookMessages as M } from "../../contract";
import { verifyWebhook } from "../crypto/webhook-signature";
import { deliverWebhook } from "./webhooks";

const attempt = { deliveryId: "whd_1", attempt: 1, eventId: "evt_1", url: "https://93.184.216.34/hook", secret: "whsec_test", body: '{"id":"evt_1"}' };
const production = { ENVIRONMENT: "production" };

/** A fetch that answers from a list of responses and records the URLs asked. */
function scripted(responses: (() => Response)[]) {
  const asked: { url: string; init: RequestInit | undefined }[] = [];
  const fetcher = (async (url: string, init?: RequestInit) => {
    asked.push({ url, init });
    const next = responses.shift();
    if (!next) throw new Error("no more responses");
    return next();
  }) as unknown as typeof fetch;
  return { asked, fetcher };
}

describe("one webhook delivery", () => {
  it("POSTs the body signed, with the event id and user agent, redirect manual", async () => {
    const { asked, fetcher } = scripted([() => new Response("ok", { status: 200 })]);
    const outcome = await deliverWebhook(attempt, production, fetcher);
    expect(outcome).toMatchObject({ status: 200, response: "ok" });
    const init = asked[0]!.init!;
    const headers = init.headers as Record<string, string>;
    expect(init).toMatchObject({ method: "POST", redirect: "manual", body: attempt.body });
    expect(headers[L.eventIdHeader.toLowerCase()]).toBe("evt_1");
    expect(headers["user-agent"]).toBe(L.userAgent);
    expect(await verifyWebhook(attempt.secret, attempt.body, headers[L.signatureHeader.toLowerCase()]!, Date.now() / 1000)).toBe(true);
  });

  it("in production, a redirect to a private or metadata address is refused before it is requested", async () => {
    for (const location of ["https://169.254.169.254/latest/meta-data", "https://10.0.0.5/hook", "https://localhost/hook", "http://93.184.216.35/hook"]) {
      const { asked, fetcher } = scripted([() => new Response(null, { status: 302, headers: { location } })]);
      const outcome = await deliverWebhook(attempt, production, fetcher);
      expect(outcome, location).toMatchObject({ status: null, error: M.redirectRefused, permanent: true });
      expect(asked).toHaveLength(1);
    }
  });

  it("follows at most maxRedirects hops", async () => {
    const hop = () => new Response(null, { status: 307, headers: { location: "https://93.184.216.34/next" } });
    const { asked, fetcher } = scripted(Array.from({ length: L.maxRedirects + 2 }, () => hop));
    expect(await deliverWebhook(attempt, production, fetcher)).toMatchObject({ status: null, error: M.tooManyRedirects(L.maxRedirects), permanent: true });
    expect(asked).toHaveLength(L.maxRedirects + 1);
  });

  it("keeps the response's first bytes only, and a 429's Retry-After", async () => {
    const big = "x".repeat(L.responseExcerptBytes * 50);
    const { fetcher } = scripted([() => new Response(big, { status: 429, headers: { "retry-after": "30" } })]);
    const outcome = await deliverWebhook(attempt, production, fetcher);
    expect(outcome).toMatchObject({ status: 429, retryAfter: "30" });
    expect(outcome.response).toHaveLength(L.responseExcerptBytes);
  });

  it("a network error is reported without a status, and never throws", async () => {
    const { fetcher } = scripted([]);
    expect(await deliverWebhook(attempt, production, fetcher)).toMatchObject({ status: null, error: M.networkError });
  });
});
