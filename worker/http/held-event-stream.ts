/**
 * One held `text/event-stream` response that an object writes to while the request stays open:
 * the chat's HTTP frame streams (chat/frame-sink.ts) and the visitor's event streams
 * (widget/event-streams.ts) are both built on it. Bounded in time and memory, whoever reads it:
 * - a comment line every `heartbeatMs` keeps proxies from cutting a quiet stream;
 * - the stream ends at the latest after `maxMs` (the client opens the next);
 * - a client that stops reading is cut once `maxQueued` writes wait for it, never buffered further;
 * - a client that goes away ends the stream, noticed at the next write at the latest (a frame or
 *   the heartbeat: a cancel across objects reaches the writer only then).
 * No import from `cloudflare:workers`: unit-tested in Node with fake timers.
 */
export interface HeldEventStreamLimits {
  heartbeatMs: number;
  maxMs: number;
  /** Writes waiting for a slow reader before the stream is cut. */
  maxQueued: number;
}

export interface HeldEventStream {
  /** The answer to the request: the written text as it comes. */
  readonly response: Response;
  /** Settles once the stream ended, for whatever reason. */
  readonly closed: Promise<void>;
  readonly open: boolean;
  /** Writes raw event-stream text (a whole event); a write after the end, or past the queue bound (which ends it), is dropped. */
  write(text: string): void;
  /** Ends the stream (what was written still reaches the client). Idempotent. */
  close(): void;
}

const encoder = new TextEncoder();

export const eventStreamHeaders = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-store, no-transform",
  "x-accel-buffering": "no",
} as const;

export function heldEventStream(limits: HeldEventStreamLimits, headers: Record<string, string> = {}): HeldEventStream {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let open = true;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const close = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    clearTimeout(deadline);
    writer.close().catch(() => {});
    resolveClosed();
  };
  const write = (text: string) => {
    if (!open) return;
    // desiredSize falls by one per chunk the reader has not taken (high-water mark 1).
    if ((writer.desiredSize ?? 0) < -limits.maxQueued) return close();
    writer.write(encoder.encode(text)).catch(() => close());
  };
  const heartbeat = setInterval(() => write(": keep-alive\n\n"), limits.heartbeatMs);
  const deadline = setTimeout(close, limits.maxMs);
  // A client that hangs up cancels the readable side, which errors the writer (at once within an
  // isolate; across objects at the next write, whose rejection ends the stream as well).
  writer.closed.catch(() => close());
  return {
    response: new Response(readable, { headers: { ...eventStreamHeaders, ...headers } }),
    closed,
    get open() {
      return open;
    },
    write,
    close,
  };
}
