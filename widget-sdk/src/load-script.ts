import { CORE_GLOBAL, type CoreFactory, type TalaOptions } from "./types";

declare const __TALA_CORE_VERSION__: string | undefined;

const inFlight = new Map<string, Promise<CoreFactory>>();

/** The core's address on a Tala server; the build stamps a version so a new core is never stale. */
export function coreUrl(host: string): string {
  const version = typeof __TALA_CORE_VERSION__ === "string" ? __TALA_CORE_VERSION__ : "";
  return `${host.replace(/\/+$/, "")}/widget-core.js${version ? `?v=${version}` : ""}`;
}

const factory = () => (window as unknown as Record<string, unknown>)[CORE_GLOBAL] as CoreFactory | undefined;

/**
 * Loads widget-core.js with a classic `<script async>` (no CORS needed; the CSP nonce honoured).
 * One request per address however many widgets ask; a failed load may be retried later.
 */
export function loadCoreScript(options: TalaOptions): Promise<CoreFactory> {
  const ready = factory();
  if (typeof ready === "function") return Promise.resolve(ready);
  const src = coreUrl(options.host);
  let promise = inFlight.get(src);
  if (!promise) {
    promise = new Promise<CoreFactory>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      if (options.nonce) script.nonce = options.nonce;
      script.onload = () => {
        const f = factory();
        if (typeof f === "function") resolve(f);
        else reject(new Error("tala: no core"));
      };
      script.onerror = () => {
        inFlight.delete(src);
        script.remove();
        reject(new Error("tala: core failed to load"));
      };
      (document.head || document.documentElement).appendChild(script);
    });
    inFlight.set(src, promise);
  }
  return promise;
}
