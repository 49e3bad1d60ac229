/**
 * Tala's security headers, written once: the Worker's middleware (API answers, the dashboard shell)
 * and the build (scripts/build-headers.mjs writes dist/public/_headers for the static files) both
 * read them. Imports nothing from the Workers runtime, so the build can load it in Node.
 *
 * Four policies:
 * - app: the dashboard (signed-in pages, tokens in localStorage) — never framed, scripts only from
 *   this origin plus the hashes of the shell's own inline script, Firebase hosts only when Google
 *   sign-in is configured;
 * - site: the marketing pages — the same, without Firebase; the home page's live demo loads
 *   /widget.js from this origin and talks to /api and /parties here ('self' covers ws/wss).
 * - widgetScript: /widget.js and its core chunk, loaded by any host page: CORP cross-origin so
 *   embedding pages with COEP can still load them; a script has no document, so its CSP only
 *   matters if someone opens the file directly, and then nothing runs.
 * - api: JSON answers — nothing may load or frame them.
 */

/** Headers on every answer: no MIME sniffing, a referrer that never leaks paths across origins. */
export const baseSecurityHeaders: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  // Tala uses none of these; a compromised script cannot either.
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

/** One year, subdomains included (what GitHub and Stripe send); only ever sent over https. */
export const hstsValue = "max-age=31536000; includeSubDomains";

/** What Firebase's Google sign-in popup needs (gapi script, the auth iframe, token endpoints). */
export const firebaseSources = {
  script: ["https://apis.google.com"],
  connect: ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com", "https://www.googleapis.com"],
} as const;

export interface PagePolicyInput {
  /** `'sha256-…'` sources of the page's inline scripts (see inlineScriptHashes). */
  scriptHashes: readonly string[];
  /** Firebase's auth domain when Google sign-in is configured (its iframe must load). */
  firebaseAuthDomain?: string | null;
}

const join = (directives: Record<string, readonly string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");

/** CSP for HTML pages (dashboard and marketing site). */
export function pagePolicy({ scriptHashes, firebaseAuthDomain }: PagePolicyInput): string {
  const firebase = Boolean(firebaseAuthDomain);
  return join({
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptHashes, ...(firebase ? firebaseSources.script : [])],
    // The widget and React set styles at runtime (the widget's shadow root holds <style> elements):
    // inline styles cannot run code, so allowing them costs little (GitHub does the same).
    "style-src": ["'self'", "'unsafe-inline'"],
    // Profile photos come from the identity provider (https); previews of attachments are blob:.
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...(firebase ? firebaseSources.connect : [])],
    "frame-src": firebase ? ["'self'", `https://${firebaseAuthDomain}`] : ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  });
}

/** Headers of an HTML page: its CSP, and X-Frame-Options for browsers without frame-ancestors. */
export const pageHeaders = (input: PagePolicyInput): Record<string, string> => ({
  "content-security-policy": pagePolicy(input),
  "x-frame-options": "DENY",
});

/** JSON answers and the Worker's other non-HTML answers. */
export const apiHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
};

/** /widget.js and /widget-core.js: loadable by any host page, never run as a document. */
export const widgetScriptHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cross-origin-resource-policy": "cross-origin",
  // Lets hosts add `crossorigin` and Subresource Integrity to the script tag.
  "access-control-allow-origin": "*",
};

const INLINE_SCRIPT = /<script(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `'sha256-…'` CSP sources for every inline `<script>` (without src) in `html`, in order, unique. */
export async function inlineScriptHashes(html: string): Promise<string[]> {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const body = match[1] ?? "";
    if (!body.trim()) continue;
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
    hashes.add(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  }
  return [...hashes];
}
