import type { ChunkName, Chunks } from "../core/chunks";
import { CHUNK_GLOBAL } from "../types";

/** A chunk's one statement: it hands its exports to the core (src/core/chunks.ts). */
export function register<N extends ChunkName>(name: N, value: Chunks[N]) {
  ((globalThis as unknown as Record<string, Partial<Chunks>>)[CHUNK_GLOBAL] ??= {})[name] = value;
}
