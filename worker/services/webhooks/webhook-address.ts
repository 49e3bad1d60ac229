import { webhookMessages as M } from "../../../contract";
import { isLocal, type Env } from "../../env";
import { isBlockedHostname, resolvePublic, type ResolveResult } from "../../knowledge/web/address";

/**
 * The rules of a webhook endpoint's address, the website sources' (knowledge/web/address.ts):
 * a full http(s) URL with no user name or password; in production https only, and a public host
 * (no private, loopback, link-local or metadata address; names resolved through DNS-over-HTTPS).
 * Locally (`ENVIRONMENT` "local": `npm start`, the tests) any http(s) host passes, so a test runs
 * its receiver on loopback. Checked when the owner saves the address and again for every hop of
 * every delivery (redirects included). Never throws.
 */

export type WebhookAddressCheck = { ok: true; url: string } | { ok: false; error: string; reason: "invalid" | "not-public" | "unresolvable" };

export async function checkWebhookAddress(
  url: string,
  env: Pick<Env, "ENVIRONMENT">,
  fetcher: typeof fetch = fetch,
  resolve: (host: string, fetcher: typeof fetch) => Promise<ResolveResult> = resolvePublic,
): Promise<WebhookAddressCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: M.urlInvalid, reason: "invalid" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { ok: false, error: M.urlInvalid, reason: "invalid" };
  if (parsed.username || parsed.password) return { ok: false, error: M.urlHasCredentials, reason: "invalid" };
  parsed.hash = "";
  if (isLocal(env)) return { ok: true, url: parsed.href };
  if (parsed.protocol !== "https:") return { ok: false, error: M.httpsOnly, reason: "invalid" };
  if (isBlockedHostname(parsed.hostname)) return { ok: false, error: M.urlNotAllowed, reason: "not-public" };
  const resolved = await resolve(parsed.hostname, fetcher);
  if (!resolved.ok) return resolved.reason === "not-public" ? { ok: false, error: M.urlNotAllowed, reason: "not-public" } : { ok: false, error: M.networkError, reason: "unresolvable" };
  return { ok: true, url: parsed.href };
}
