/**
 * The owner's Playground transport: the widget's `Transport` over
 * POST /api/public-assistants/{id}/playground instead of a visitor session. Each message carries
 * the conversation's earlier turns (`history`) and the owner's locale, with the dashboard's
 * Authorization header; the answer is the widget's own Server-Sent Events, read with sse.ts and
 * checked with frames.ts. Nothing here is part of widget-core.js: only the dashboard imports it
 * (playground.ts), so the public bundle does not grow.
 *
 * `remaining-messages` is the owner's playground throttle (per minute), not a visitor limit: it
 * goes to `onRemaining` rather than to the widget, which would read it as a session limit. A
 * refusal (429 throttle, 4xx, 5xx), a network failure or a stream that ends before its answer
 * reaches the widget as `onLost`, which shows it the way the widget shows every failed reply.
 * Never throws.
 */
import type { WidgetSendMessageData } from "../../../contract/schemas/widget";
import type { PlaygroundTurn } from "../../../contract/schemas/playground";
import { playground, widget } from "../../../contract/constants";
import { errorOf } from "./api";
import { toFrame } from "./frames";
import { createSseParser } from "./sse";
import type { Transport, TransportEvents } from "./transport";

export interface PlaygroundTransportOptions {
  /** The playground endpoint's URL (the dashboard's API base + playgroundPath(id)). */
  url: string;
  /** The dashboard's Authorization header value, read at each send (tokens refresh); null for none. */
  authorization: () => string | null;
  /** The earlier turns, oldest first, as they stand when a message is sent. */
  history: () => PlaygroundTurn[];
  /** The owner's language, as a visitor's widget sends its own. */
  locale: string;
  /** The owner's playground messages left this minute, after each answer. */
  onRemaining?: (remaining: number, limit: number) => void;
  fetch?: typeof fetch;
}

export function createPlaygroundTransport(options: PlaygroundTransportOptions, events: TransportEvents): Transport {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  /** The message whose reply is awaited, and the stream carrying it. */
  let inFlight: string | null = null;
  let stream: AbortController | null = null;

  const lost = (id: string, error: string | null, status: number) => {
    if (inFlight !== id) return;
    inFlight = null;
    events.onLost(id, error, status);
  };

  async function post(data: WidgetSendMessageData) {
    const id = data.clientMessageId;
    const abort = (stream = new AbortController());
    const headers: Record<string, string> = { accept: "text/event-stream", "content-type": "application/json" };
    try {
      const auth = options.authorization();
      if (auth) headers.authorization = auth;
      const body = { ...data, history: options.history(), locale: options.locale.slice(0, widget.maxLocaleChars) };
      const res = await doFetch(options.url, { method: "POST", headers, body: JSON.stringify(body), credentials: "include", signal: abort.signal });
      if (!res.ok || !res.body) return lost(id, await errorOf(res), res.status);
      const parser = createSseParser((event, text) => {
        let frame;
        try {
          frame = toFrame(event, JSON.parse(text));
        } catch {
          return; // not JSON: dropped
        }
        if (!frame) return;
        if (frame.event === "remaining-messages") return options.onRemaining?.(frame.data.remaining, frame.data.limit);
        if (frame.event === "message-error" || (frame.event === "new-message" && frame.data.message.role !== "user" && frame.data.message.status !== "streaming")) {
          inFlight = null;
        }
        try {
          events.onFrame(frame);
        } catch {
          // A malformed event must not break the chat or the page.
        }
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) parser.push(r.value);
      parser.end();
      // Ended without its answer: the reply was cut off.
      lost(id, null, 0);
    } catch {
      if (!abort.signal.aborted) lost(id, null, 0);
    } finally {
      if (stream === abort) stream = null;
    }
  }

  return {
    send(data) {
      stream?.abort();
      inFlight = data.clientMessageId;
      void post(data);
    },
    stop() {
      // Aborting the request stops the answer on the server too (the route stops when the owner goes).
      if (!stream) return false;
      stream.abort();
      inFlight = null;
      return true;
    },
    close() {
      stream?.abort();
      stream = null;
      inFlight = null;
    },
    // No visitor socket: nothing of a person's (the Playground never offers one).
    live: () => null,
  };
}

/** A widget message; a person's messages and the handoff's notes never reach the Playground. */
type HistorySource = { role: string; text: string; status: string };

/**
 * The earlier turns sent with a new message, from the widget's messages: the owner's accepted
 * messages and the finished answers (a failed one is not kept, as for visitors; a stopped one
 * keeps its text so far), the latest `playground.maxHistoryMessages`, and no more characters in
 * all than `playground.maxHistoryChars` (the oldest go first), which is what the endpoint accepts.
 */
export function playgroundHistory(messages: readonly HistorySource[]): PlaygroundTurn[] {
  const kept = messages.filter((m) =>
    m.role === "user" ? m.status === "complete" : m.role === "assistant" && (m.status === "complete" || m.status === "stopped") && !!m.text,
  );
  const turns: PlaygroundTurn[] = [];
  let chars = 0;
  for (let i = kept.length - 1; i >= 0 && turns.length < playground.maxHistoryMessages; i--) {
    const m = kept[i]!;
    if (chars + m.text.length > playground.maxHistoryChars) break;
    chars += m.text.length;
    turns.unshift({ role: m.role as PlaygroundTurn["role"], content: m.text });
  }
  return turns;
}
