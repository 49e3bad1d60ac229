import { describe, expect, it } from "vitest";
import { webhookMessages as M } from "../../../contract";
import type { ResolveResult } from "../../knowledge/web/address";
import { checkWebhookAddress } from "./webhook-address";

const production = { ENVIRONMENT: "production" };
const local = { ENVIRONMENT: "local" };
/** A resolver with fixed answers (no network): a name → its addresses. */
const resolver = (answers: Record<string, ResolveResult>) => async (host: string) => answers[host] ?? ({ ok: false, reason: "unresolvable" } as const);
const noFetch = (() => Promise.reject(new Error("no network in this test"))) as unknown as typeof fetch;
const check = (url: string, env = production, answers: Record<string, ResolveResult> = {}) => checkWebhookAddress(url, env, noFetch, resolver(answers));

describe("webhook addresses", () => {
  it("production: https to a public host passes", async () => {
    expect(await check("https://hooks.example.com/tala#frag", production, { "hooks.example.com": { ok: true, addresses: ["93.184.216.34"] } })).toEqual({
      ok: true,
      url: "https://hooks.example.com/tala",
    });
  });

  it("production: http, credentials and malformed URLs are refused with their messages", async () => {
    expect(await check("http://hooks.example.com/")).toMatchObject({ ok: false, error: M.httpsOnly });
    expect(await check("https://user:pw@hooks.example.com/")).toMatchObject({ ok: false, error: M.urlHasCredentials });
    expect(await check("not a url")).toMatchObject({ ok: false, error: M.urlInvalid });
    expect(await check("ftp://hooks.example.com/")).toMatchObject({ ok: false, error: M.urlInvalid });
  });

  it("production: loopback, private, link-local and metadata addresses are refused, literal or resolved", async () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://localhost/",
      "https://10.1.2.3/",
      "https://192.168.0.10/",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/",
      "https://[fd00:ec2::254]/",
      "https://metadata.google.internal/",
      "https://0x7f.1/",
    ]) {
      expect(await check(url), url).toMatchObject({ ok: false, error: M.urlNotAllowed, reason: "not-public" });
    }
    expect(await check("https://inward.example.com/", production, { "inward.example.com": { ok: false, reason: "not-public" } })).toMatchObject({ ok: false, error: M.urlNotAllowed });
  });

  it("locally, a loopback http receiver is allowed (the tests' receivers)", async () => {
    expect(await check("http://127.0.0.1:8787/hook", local)).toEqual({ ok: true, url: "http://127.0.0.1:8787/hook" });
    expect(await check("https://u:p@127.0.0.1/", local)).toMatchObject({ ok: false, error: M.urlHasCredentials });
  });
});
