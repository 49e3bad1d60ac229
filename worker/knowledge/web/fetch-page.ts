import { webSourceMessages } from "../../../contract";
import { beforeNonSpace, bySlices } from "../extract/collector";
import { windows1252High } from "../extract/html-entities";
import { isBlockedHostname, resolvePublic, type ResolveResult } from "./address";

export interface FetchPageOptions {
  /** The platform's fetch (called unbound, so the global one works in workerd). */
  fetcher: typeof fetch;
  /** Skip the public-address checks (blocked host names and DNS): local development and tests only. */
  allowPrivate: boolean;
  /** How a host name is checked; `resolvePublic` over `fetcher` when absent (a caller may memoise it per run). */
  resolver?: (host: string) => Promise<ResolveResult>;
  userAgent: string;
  accept?: string;
  /** Validators of the copy the caller has: sent as If-None-Match / If-Modified-Since. */
  etag?: string | null;
  lastModified?: string | null;
  /** One deadline for the whole fetch: checks, redirects, headers and body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Checked for the first URL and every redirect target (robots.txt): false refuses with "robots". */
  allowed?: (url: string) => boolean | Promise<boolean>;
  /** "page": text/html, application/xhtml+xml, text/plain. "text" (robots.txt, sitemaps): any text or XML type, or none. */
  kinds?: "page" | "text";
  /** Past `maxBytes`: "fail" (default, before reading when Content-Length says so) or "truncate" (robots.txt, sitemaps: keep the first `maxBytes`). */
  overflow?: "fail" | "truncate";
  /**
   * kinds "text": inflate a gzip body (application/gzip or x-gzip, or a ".gz" URL sent as
   * octet-stream or without a type: .xml.gz sitemaps); `maxBytes` then counts inflated bytes.
   */
  gzip?: boolean;
}

export type FetchFailureReason = "http" | "not-html" | "too-large" | "timeout" | "not-public" | "redirects" | "unreachable" | "robots";

export type FetchPageResult =
  | {
      ok: true;
      status: 200;
      /** The final URL, after redirects. */
      url: string;
      /** The MIME type, lower-cased, without parameters ("text/html"). */
      contentType: string;
      body: string;
      etag: string | null;
      lastModified: string | null;
      /** True when `overflow: "truncate"` cut the body at `maxBytes`. */
      truncated?: boolean;
      /** The X-Robots-Tag header (see `robotsDirectives`), or null. */
      robotsTag?: string | null;
    }
  | { ok: true; status: 304; url: string; etag: string | null; lastModified: string | null }
  | { ok: false; reason: FetchFailureReason; status?: number; url: string; error: string };

type Failure = Extract<FetchPageResult, { ok: false }>;

const M = webSourceMessages.page;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const pageTypes = new Set(["text/html", "application/xhtml+xml", "text/plain"]);
const gzipTypes = new Set(["application/gzip", "application/x-gzip"]);
/** Compressed bytes handed to the inflater at a time: deflate expands at most ~1:1032, so one step yields at most ~1 MB. */
const GZIP_SLICE = 1024;
/** Validators longer than a URL are not stored. */
const maxValidatorChars = 2_048;

function failure(reason: FetchFailureReason, url: string, options: FetchPageOptions, detail: { status?: number; contentType?: string } = {}): Failure {
  const error = {
    http: () => M.httpStatus(detail.status ?? 0),
    "not-html": () => M.notHtml(detail.contentType ?? ""),
    "too-large": () => M.tooLarge(Math.max(0.1, Math.round((options.maxBytes / (1024 * 1024)) * 10) / 10)),
    timeout: () => M.timeout(Math.ceil(options.timeoutMs / 1000)),
    "not-public": () => M.notPublic,
    redirects: () => M.tooManyRedirects(options.maxRedirects),
    unreachable: () => M.unreachable,
    robots: () => M.blockedByRobots,
  }[reason]();
  return detail.status === undefined ? { ok: false, reason, url, error } : { ok: false, reason, status: detail.status, url, error };
}

/** The deadline fired. */
class Deadline extends Error {}

/** The checks every hop passes before it is requested: the URL to request, or why not. */
async function checkHop(url: string, options: FetchPageOptions): Promise<{ url: string } | { refused: FetchFailureReason }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: "unreachable" };
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.username || parsed.password) return { refused: "unreachable" };
  parsed.hash = "";
  if (!options.allowPrivate) {
    if (isBlockedHostname(parsed.hostname)) return { refused: "not-public" };
    const { fetcher } = options;
    const resolved = await (options.resolver ?? ((host: string) => resolvePublic(host, fetcher)))(parsed.hostname);
    if (!resolved.ok) return { refused: resolved.reason === "not-public" ? "not-public" : "unreachable" };
  }
  if (options.allowed && !(await options.allowed(parsed.href))) return { refused: "robots" };
  return { url: parsed.href };
}

const mimeOf = (contentType: string) => contentType.split(";", 1)[0]!.trim().toLowerCase();

function accepts(kind: "page" | "text", mime: string): boolean {
  if (kind === "page") return pageTypes.has(mime);
  return mime === "" || mime.startsWith("text/") || mime === "application/xml" || mime.endsWith("+xml");
}

function isGzip(mime: string, url: string): boolean {
  if (gzipTypes.has(mime)) return true;
  return (mime === "" || mime === "application/octet-stream") && new URL(url).pathname.toLowerCase().endsWith(".gz");
}

/** Throws away a response's body without waiting for it (frees the connection). */
const discard = (response: Response) => {
  response.body?.cancel().catch(() => undefined);
};

/**
 * `body` inflated from gzip, fed to the inflater in 1 KB slices so that no single step can expand
 * into more than about a megabyte before the reader's count sees it.
 */
function gunzip(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const slicer = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (let at = 0; at < chunk.byteLength; at += GZIP_SLICE) controller.enqueue(chunk.subarray(at, at + GZIP_SLICE));
    },
  });
  return body.pipeThrough(slicer).pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
}

/**
 * Reads `stream` up to `maxBytes`. Past it: null ("fail"), or the first `maxBytes` ("truncate");
 * either way the reader is cancelled at once. `wait` races each read against the deadline.
 */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  truncate: boolean,
  wait: <T>(promise: Promise<T>) => Promise<T>,
): Promise<{ bytes: Uint8Array; truncated: boolean } | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  let truncated = false;
  try {
    for (;;) {
      const next = await wait(reader.read());
      if (next.done) {
        done = true;
        break;
      }
      const chunk = next.value;
      if (total + chunk.byteLength > maxBytes) {
        if (!truncate) return null;
        chunks.push(chunk.subarray(0, maxBytes - total));
        total = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      total += chunk.byteLength;
    }
  } finally {
    if (!done) reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, truncated };
}

/** The charset parameter of a Content-Type, or null. */
function charsetParam(contentType: string): string | null {
  for (const part of contentType.split(";").slice(1)) {
    const [key, ...rest] = part.split("=");
    if (key?.trim().toLowerCase() === "charset") return rest.join("=").trim().replace(/^["']|["']$/g, "") || null;
  }
  return null;
}

/** A charset declared by a <meta> in the first 1,024 bytes (WHATWG "prescan", simplified), or null. */
export function sniffMetaCharset(bytes: Uint8Array): string | null {
  const head = String.fromCharCode(...bytes.subarray(0, 1024)).toLowerCase();
  for (let meta = head.indexOf("<meta"); meta >= 0; meta = head.indexOf("<meta", meta + 5)) {
    const end = head.indexOf(">", meta);
    const tag = head.slice(meta, end < 0 ? head.length : end);
    const at = tag.indexOf("charset");
    if (at < 0) continue;
    let i = at + 7;
    while (tag[i] === " " || tag[i] === "\t" || tag[i] === "\n" || tag[i] === "\r") i++;
    if (tag[i] !== "=") continue;
    i++;
    while (tag[i] === " " || tag[i] === '"' || tag[i] === "'") i++;
    let j = i;
    while (j < tag.length && /[a-z0-9_.:-]/.test(tag[j]!)) j++;
    if (j > i) return tag.slice(i, j);
  }
  return null;
}

/**
 * Decodes `bytes` (non-fatal): a byte-order mark wins, then the Content-Type charset, then (HTML)
 * a <meta> charset in the first 1,024 bytes, else UTF-8. An unknown label is read as UTF-8; a meta
 * naming UTF-16 means UTF-8 (an ASCII-compatible prescan cannot have found it otherwise). Bytes
 * 0x80–0x9F of windows-1252 are mapped by hand (Node 20 reads them as latin1 control codes).
 */
export function decodeBody(bytes: Uint8Array, contentType: string, html: boolean): string {
  let label = charsetParam(contentType);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) label = "utf-8";
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = "utf-16be";
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = "utf-16le";
  else if (!label && html) {
    label = sniffMetaCharset(bytes);
    if (label?.startsWith("utf-16")) label = "utf-8";
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  const text = decoder.decode(bytes);
  if (decoder.encoding !== "windows-1252" || !/[\u0080-\u009f]/.test(text)) return text;
  return bySlices(text, (slice) => slice.replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(windows1252High[c.charCodeAt(0) - 0x80] || c.charCodeAt(0))), beforeNonSpace);
}

const validator = (value: string | null) => (value && value.length <= maxValidatorChars ? value : null);

/**
 * Fetches one page (or robots.txt / sitemap with kinds "text") as the crawler must: every hop —
 * the URL and each redirect (`redirect: "manual"`, Location resolved against the hop) — is
 * http(s), not a blocked host name and (unless `allowPrivate`) resolved to public addresses only,
 * and `allowed` (robots.txt); at most `maxRedirects` redirects. Sends User-Agent, Accept and the
 * caller's validators (a 304 comes back as such). A Content-Length past `maxBytes` fails before
 * reading; the body is read as a stream and the read stops (reader cancelled, request aborted)
 * as soon as it passes `maxBytes`. One deadline (`timeoutMs`) covers the checks, every request's
 * headers and the body. Decodes by charset (see `decodeBody`). Keeps nothing between calls;
 * never throws: a failure carries its reason and the owner-facing sentence of
 * `webSourceMessages.page`.
 */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchPageResult> {
  const { fetcher, maxBytes } = options;
  const kind = options.kinds ?? "page";
  const truncate = options.overflow === "truncate";
  const controller = new AbortController();
  const deadline = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(new Deadline("deadline")), { once: true });
  });
  deadline.catch(() => undefined);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const wait = <T>(promise: Promise<T>) => Promise.race([promise, deadline]);
  const headers: Record<string, string> = {
    "user-agent": options.userAgent,
    accept: options.accept ?? (kind === "page" ? "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8" : "text/plain,application/xml;q=0.9,text/xml;q=0.9,*/*;q=0.5"),
  };
  if (options.etag) headers["if-none-match"] = options.etag;
  if (options.lastModified) headers["if-modified-since"] = options.lastModified;

  let current = url;
  try {
    for (let redirects = 0; ; redirects++) {
      const hop = await wait(checkHop(current, options));
      if ("refused" in hop) return failure(hop.refused, current, options);
      current = hop.url;
      const response = await wait(fetcher(current, { method: "GET", redirect: "manual", headers, signal: controller.signal }));
      const { status } = response;
      if (redirectStatuses.has(status)) {
        const location = response.headers.get("location");
        discard(response);
        if (!location) return failure("http", current, options, { status });
        if (redirects >= options.maxRedirects) return failure("redirects", current, options);
        try {
          current = new URL(location, current).href;
        } catch {
          return failure("unreachable", current, options);
        }
        continue;
      }
      if (status === 304 && (options.etag || options.lastModified)) {
        discard(response);
        return {
          ok: true,
          status: 304,
          url: current,
          etag: validator(response.headers.get("etag")) ?? options.etag ?? null,
          lastModified: validator(response.headers.get("last-modified")) ?? options.lastModified ?? null,
        };
      }
      if (status !== 200) {
        discard(response);
        return failure("http", current, options, { status });
      }
      const contentType = response.headers.get("content-type") ?? "";
      const mime = mimeOf(contentType);
      const gzip = kind === "text" && options.gzip === true && isGzip(mime, current);
      if (!gzip && !accepts(kind, mime)) {
        discard(response);
        return failure("not-html", current, options, { contentType: mime });
      }
      const declared = Number(response.headers.get("content-length") ?? "");
      if (!truncate && !gzip && Number.isFinite(declared) && declared > maxBytes) {
        discard(response);
        controller.abort();
        return failure("too-large", current, options);
      }
      const stream = response.body ? (gzip ? gunzip(response.body) : response.body) : null;
      const read = stream ? await readCapped(stream, maxBytes, truncate, wait) : { bytes: new Uint8Array(0), truncated: false };
      if (!read) {
        controller.abort();
        return failure("too-large", current, options);
      }
      return {
        ok: true,
        status: 200,
        url: current,
        contentType: gzip ? "application/xml" : mime,
        body: decodeBody(read.bytes, gzip ? "" : contentType, mime === "text/html" || mime === "application/xhtml+xml"),
        etag: validator(response.headers.get("etag")),
        lastModified: validator(response.headers.get("last-modified")),
        truncated: read.truncated,
        robotsTag: response.headers.get("x-robots-tag")?.slice(0, 4096) ?? null,
      };
    }
  } catch (error) {
    if (timedOut || error instanceof Deadline) return failure("timeout", current, options);
    return failure("unreachable", current, options);
  } finally {
    clearTimeout(timer);
  }
}
