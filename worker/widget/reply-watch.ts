import { handoffLimits, type InboxFrameData, type WidgetServerFrame } from "../../contract";

/** Tells owners' rooms one inbox frame (services/realtime/relay-to-owners.ts: logs, never throws). */
export type RelayInbox = (rooms: readonly string[], data: InboxFrameData) => Promise<void>;

export interface ReplyWatch {
  /** The turn's emit: the visitor's frame first, always, then (for a watched turn) the owners' share of it. */
  readonly emit: (frame: WidgetServerFrame) => void;
  /** Sends what is still batched and waits for every relay in order (at the end of the turn, before the reply's `message` is relayed). */
  done(): Promise<void>;
}

export interface ReplyWatchInput {
  /** The owners' rooms that opened this conversation (AssistantHub.beginTurn's `watchSession`). */
  rooms: readonly string[];
  assistantId: string;
  sessionId: string;
  relay: RelayInbox;
  batchMs?: number;
}

const nothingToWait = () => Promise.resolve();

/**
 * A visitor turn's frames, also streamed to the owners watching the conversation in their inbox:
 * `thinking` as an inbox frame `kind: "thinking"` (with the reply's id), the reply's deltas joined
 * into `kind: "delta"` batches sent at most every `batchMs` (handoffLimits.watchDeltaMs), the last
 * batch when the reply ends (`new-message` or `message-error`). The visitor's frame is always
 * emitted first and never waits for an owner: relays run one after the other in the background,
 * in order, and `done` awaits them. Nobody watching (`rooms` empty): the turn's own emit, as is,
 * so an unwatched turn costs nothing more. No import from `cloudflare:workers`.
 */
export function watchReply(emit: (frame: WidgetServerFrame) => void, input: ReplyWatchInput): ReplyWatch {
  if (input.rooms.length === 0) return { emit, done: nothingToWait };
  const { rooms, assistantId, sessionId, relay, batchMs = handoffLimits.watchDeltaMs } = input;
  let batch: { messageId: string; offset: number; text: string } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let relays: Promise<void> = Promise.resolve();
  const send = (data: Omit<InboxFrameData, "assistantId" | "sessionId">) => {
    const frame: InboxFrameData = { assistantId, sessionId, ...data };
    relays = relays.then(() => relay(rooms, frame)).catch(() => {});
  };
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!batch) return;
    send({ kind: "delta", delta: batch });
    batch = null;
  };
  return {
    emit(frame) {
      emit(frame);
      switch (frame.event) {
        case "thinking":
          flush();
          send({ kind: "thinking", messageId: frame.data.messageId });
          return;
        case "message-delta": {
          const { messageId, delta, offset } = frame.data;
          // A delta that does not follow the batch (another reply, a gap) starts a new one.
          if (batch && (batch.messageId !== messageId || batch.offset + batch.text.length !== offset)) flush();
          if (batch) batch.text += delta;
          else batch = { messageId, offset, text: delta };
          timer ??= setTimeout(flush, batchMs);
          return;
        }
        case "new-message":
        case "message-error":
          flush();
          return;
        default:
          return;
      }
    },
    async done() {
      flush();
      await relays;
    },
  };
}
