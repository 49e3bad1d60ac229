import { enWidgetStrings, type WidgetHandoffStrings, type WidgetLeadStrings, type WidgetLocale, type WidgetStrings } from "../../../contract/widget-strings";
import type { BlockedChunk } from "../chunks/blocked";
import type { SseChunk } from "../chunks/sse";
import type { FilesChunk } from "../chunks/files";
import type { HandoffChunk } from "../chunks/handoff";
import type { LeadChunk } from "../chunks/lead";
import type { PowChunk } from "../chunks/pow";
import type { VisitorChunk } from "../chunks/visitor";
import { CHUNK_GLOBAL } from "../types";

/**
 * Parts of the widget most visitors never need, loaded on demand beside widget-core.js: the French
 * and Arabic strings (English is in the core), the Server-Sent Events reader (only when the socket
 * fails), a verified visitor's conversation list, the proof-of-work solver, the reading of
 * attachments, a person taking over the conversation, what the visitor is told when the chat cannot
 * go on (and a refused token's renewal), the owner's lead form. Each is a classic
 * `<script>` (content-hashed names, the core's CSP nonce) that registers itself on
 * `window[CHUNK_GLOBAL]`; the build (build.mjs) stamps their file names here and shortens their
 * property names as the core's. A chunk that does not load resolves `null` (never throws) and may
 * be asked for again: the caller shows `partFailed` with a retry.
 */
export interface Chunks {
  /** A locale's strings. */
  fr: { strings: WidgetStrings };
  ar: { strings: WidgetStrings };
  sse: SseChunk;
  pow: PowChunk;
  visitor: VisitorChunk;
  files: FilesChunk;
  handoff: HandoffChunk;
  blocked: BlockedChunk;
  /** The owner's lead form: registered by the first of lead-en, lead-fr, lead-ar to load (no file of its own). */
  lead: LeadChunk;
  /** The lead form's code with one language's texts (registered as that language's texts: the code is `lead`). */
  "lead-en": WidgetLeadStrings;
  "lead-fr": WidgetLeadStrings;
  "lead-ar": WidgetLeadStrings;
  /** A person taking over's texts in French and Arabic (the handoff chunk carries English, and loads these for those visitors). */
  "handoff-fr": WidgetHandoffStrings;
  "handoff-ar": WidgetHandoffStrings;
}
export type ChunkName = keyof Chunks;

/** The build's chunk version (build.mjs): `widget-chunks/{name}.{version}.js`. */
declare const __TALA_CHUNKS__: string | undefined;

const registry = (): Partial<Chunks> => ((globalThis as unknown as Record<string, Partial<Chunks>>)[CHUNK_GLOBAL] ??= {});
const loading: Partial<Record<ChunkName, Promise<unknown>>> = {};

/** A chunk already loaded, else undefined. */
export const chunk = <N extends ChunkName>(name: N): Chunks[N] | undefined => registry()[name];

export function loadChunk<N extends ChunkName>(host: string, name: N, nonce?: string): Promise<Chunks[N] | null> {
  const ready = chunk(name);
  if (ready) return Promise.resolve(ready);
  return (loading[name] ??= new Promise<Chunks[N] | null>((resolve) => {
    try {
      const script = document.createElement("script");
      script.src = `${host}/widget-chunks/${name}.${__TALA_CHUNKS__}.js`;
      if (nonce) script.nonce = nonce;
      script.onload = script.onerror = () => {
        delete loading[name];
        script.remove();
        resolve(chunk(name) ?? null);
      };
      (document.head || document.documentElement).appendChild(script);
    } catch {
      delete loading[name];
      resolve(null);
    }
  })) as Promise<Chunks[N] | null>;
}

/** The interface strings of a locale whose chunk has loaded (English otherwise). */
export const stringsOf = (locale: WidgetLocale): WidgetStrings => (locale !== "en" && chunk(locale)?.strings) || enWidgetStrings;
