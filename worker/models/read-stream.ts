import { ModelError, type ModelTimeouts } from "./types";

/**
 * Reads a byte stream as text chunks, failing with a ModelError('timeout') when the source goes
 * silent longer than the allowed time (first chunk: firstTokenMs, then idleMs), and with
 * 'aborted' when the caller's signal fires. The reader is always released.
 */
export async function* readWithTimeouts(
  body: ReadableStream<Uint8Array>,
  timeouts: ModelTimeouts,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let first = true;
  try {
    for (;;) {
      const limit = first ? timeouts.firstTokenMs : timeouts.idleMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort: (() => void) | undefined;
      const result = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ModelError("timeout", "The model stopped responding.")), limit);
        }),
        new Promise<never>((_, reject) => {
          if (!signal) return;
          onAbort = () => reject(new ModelError("aborted", "Generation was stopped."));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]).finally(() => {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener("abort", onAbort);
      });
      if (result.done) break;
      first = false;
      yield decoder.decode(result.value, { stream: true });
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  } catch (err) {
    if (err instanceof ModelError) throw err;
    // The fetch shares the caller's signal, so an abort can surface as the read's own rejection.
    if (signal?.aborted) throw new ModelError("aborted", "Generation was stopped.");
    throw new ModelError("broken-stream", "The connection to the model was interrupted.");
  } finally {
    reader.cancel().catch(() => {});
  }
}
