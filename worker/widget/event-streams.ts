import { formatWidgetSseEvent, handoffLimits, realtime, type WidgetServerFrame, type WidgetSocketClose } from "../../contract";
import { heldEventStream, type HeldEventStream, type HeldEventStreamLimits } from "../http/held-event-stream";
import type { WidgetIdentity } from "./room-identity";

/** One visitor's event stream (GET /api/widget/sessions/{id}/events), and who opened it. */
export interface VisitorEventStream {
  readonly identity: WidgetIdentity;
  readonly stream: HeldEventStream;
}

export interface VisitorEventStreamLimits extends HeldEventStreamLimits {
  /** Streams of one session open at once. */
  maxStreams: number;
}

export const visitorEventStreamLimits: VisitorEventStreamLimits = {
  heartbeatMs: handoffLimits.eventStreamHeartbeatMs,
  maxMs: handoffLimits.eventStreamMaxMs,
  maxStreams: handoffLimits.maxEventStreams,
  // The same bound as the chat's HTTP frame streams: a reader that stopped is cut, never buffered for.
  maxQueued: realtime.httpMaxQueuedFrames,
};

/**
 * The event streams a visitor session's room (WidgetRoom) holds open: the widget's way to receive
 * what no message of its own caused (a person's messages, typing, handoff changes) when its
 * socket cannot get through. Every frame the room delivers goes to every stream. At most
 * `maxStreams` at once: one more ends the oldest (its widget opens the next after its backoff),
 * so a tab that reloads never waits for a stream whose client is gone and not yet noticed.
 * Revocation ends them as it closes sockets: `refuse` writes the message-error first.
 * No import from `cloudflare:workers`: unit-tested in Node.
 */
export class VisitorEventStreams {
  /** Oldest first (a Set keeps insertion order). */
  private readonly streams = new Set<VisitorEventStream>();

  constructor(private readonly limits: VisitorEventStreamLimits = visitorEventStreamLimits) {}

  get size(): number {
    return this.streams.size;
  }

  /** The oldest stream open, if any. */
  first(): VisitorEventStream | undefined {
    return this.streams.values().next().value;
  }

  /** A new stream for `identity`; `onEnded` runs once it ends, however it ends. */
  open(identity: WidgetIdentity, onEnded: (entry: VisitorEventStream) => void): VisitorEventStream {
    while (this.streams.size >= this.limits.maxStreams) {
      const oldest = this.streams.values().next().value!;
      this.streams.delete(oldest);
      oldest.stream.close();
    }
    const entry: VisitorEventStream = { identity, stream: heldEventStream(this.limits) };
    this.streams.add(entry);
    void entry.stream.closed.then(() => {
      this.streams.delete(entry);
      onEnded(entry);
    });
    return entry;
  }

  /** A frame for every stream. */
  deliver(frame: WidgetServerFrame): void {
    if (this.streams.size === 0) return;
    const text = formatWidgetSseEvent(frame);
    for (const { stream } of this.streams) stream.write(text);
  }

  /**
   * Ends the streams `refused` names, after a message-error saying why (the widget shows it and
   * opens no next stream), as WidgetRoom.closeAll does for sockets. Returns what ended and what stays.
   */
  refuse(close: WidgetSocketClose, refused: (identity: WidgetIdentity) => boolean): { closed: number; open: number } {
    let closed = 0;
    for (const entry of [...this.streams]) {
      if (!refused(entry.identity)) continue;
      this.streams.delete(entry);
      refuseStream(entry, close);
      closed += 1;
    }
    return { closed, open: this.streams.size };
  }

  /**
   * Ends the signed-in visitors' streams with no message-error (the identity secret that verified
   * them stopped): the widget opens the next, and its token is verified again by the route.
   */
  endVerified(): { closed: number; open: number } {
    let closed = 0;
    for (const entry of [...this.streams]) {
      if (!entry.identity.visitorSub) continue;
      this.streams.delete(entry);
      entry.stream.close();
      closed += 1;
    }
    return { closed, open: this.streams.size };
  }
}

/** Tells the widget why (a message-error it takes as final), then ends the stream. */
export function refuseStream({ identity, stream }: VisitorEventStream, close: WidgetSocketClose): void {
  stream.write(formatWidgetSseEvent({ event: "message-error", data: { error: close.reason, reason: close.refusal, chatId: identity.sessionId } }));
  stream.close();
}
