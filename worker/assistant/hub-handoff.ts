import { userRoomId, type InboxFrameData, type VisitorMessage, type WidgetServerFrame } from "../../contract";
import type { Env } from "../env";
import { deliverToVisitor } from "../services/realtime/deliver-to-visitor";
import { relayToOwners } from "../services/realtime/relay-to-owners";
import { toVisitorMessage } from "../services/visitor-sessions/to-visitor-session";
import { conversationHandoff, HandoffStore } from "./handoff-store";
import type { OpenedHub } from "./hub-gate";
import type { HubSockets } from "./hub-sockets";
import { InboxWatchers } from "./inbox-watchers";
import type { VisitorMessageRow, VisitorSessionRow } from "./visitor-store";

/** Ended handoffs whose visitor and owner are told one by one when a revocation ends them all. */
const END_ALL_TOLD = 200;

/**
 * The owner's inbox frames of one event, and the owners' rooms (`user-<id>`) to tell: the caller
 * relays it (`relayToOwners`) after its own frames. Rooms are empty when nobody watches.
 */
export interface InboxRelay {
  rooms: string[];
  /** The frame's data; `message` typed (the contract's is `unknown`, which does not cross RPC). */
  data: Omit<InboxFrameData, "message"> & { message?: VisitorMessage };
}

/** A visitor frame (`deliverToVisitor`) and the owner's relay of one handoff change. */
export interface HandoffTelling {
  sessionId: string;
  frame: WidgetServerFrame;
  relay: InboxRelay;
}

type SessionRow = VisitorSessionRow & { counted: number };
/** The object's alarms, as far as a takeover's idle end needs them. */
type IdleAlarm = { schedule(name: "handoff-idle", at: number): Promise<void> };

/**
 * A person taking over, as the assistant's object (AssistantHub) runs it: the inbox's watchers
 * (in memory, so a turn nobody watches reads no SQL for them), the relays a turn or a write hands
 * back to its caller, and the takeovers the object ends itself (the `handoff-idle` alarm, a
 * revocation, an erasure), whose visitor and owner it tells itself, awaited. No import from
 * `cloudflare:workers`.
 */
export class HubHandoff {
  readonly watchers: InboxWatchers;

  constructor(
    private readonly assistantId: string,
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    private readonly sockets: HubSockets,
  ) {
    this.watchers = new InboxWatchers(storage);
  }

  store(opened: OpenedHub) {
    return new HandoffStore(this.storage, opened.store);
  }

  /** The owner's room: told of every request and every takeover that ends by itself. */
  ownerRoom(opened: OpenedHub): string {
    return userRoomId(opened.assistant.record.userId);
  }

  /** The owner's room joined to the watchers (a change the owner is always told of). */
  ownerAndWatchers(opened: OpenedHub): string[] {
    return [...new Set([this.ownerRoom(opened), ...this.watchers.rooms()])];
  }

  /** The inbox frame of a saved message for the rooms watching; null (no SQL) when nobody watches. */
  messageRelay(opened: OpenedHub, sessionId: string, message: VisitorMessageRow, rooms = this.watchers.rooms()): InboxRelay | null {
    if (!rooms.length) return null;
    const session = opened.store.session(sessionId);
    if (!session) return null;
    return { rooms, data: { assistantId: this.assistantId, sessionId, kind: "message", conversation: this.conversation(opened, session), message: toVisitorMessage(message) } };
  }

  /** The inbox frame of a handoff change for `rooms`. */
  changeRelay(opened: OpenedHub, session: SessionRow, rooms: string[]): InboxRelay {
    return { rooms, data: { assistantId: this.assistantId, sessionId: session.id, kind: "handoff", conversation: this.conversation(opened, session) } };
  }

  /** The visitor's frame and the owner's relay of a handoff change. */
  telling(opened: OpenedHub, session: SessionRow, rooms: string[]): HandoffTelling {
    const handoff = conversationHandoff(session, opened.assistant.record.config.handoff);
    return { sessionId: session.id, frame: { event: "handoff", data: { chatId: session.id, handoff } }, relay: this.changeRelay(opened, session, rooms) };
  }

  conversation(opened: OpenedHub, session: SessionRow) {
    return this.store(opened).conversation(session, this.sockets.knownOpen(session.id), opened.assistant.record.config.handoff);
  }

  /** Arms the idle end for a takeover whose last activity was `activeAt` (the owner's setting; 0: never). */
  async scheduleIdle(opened: OpenedHub, alarms: IdleAlarm, activeAt: number): Promise<void> {
    const minutes = opened.assistant.record.config.handoff.idleEndMinutes;
    if (minutes > 0) await alarms.schedule("handoff-idle", activeAt + minutes * 60_000);
  }

  /** Arms the idle end for the takeover idle longest, on the owner's current setting (nothing taken, or 0: nothing). */
  async armIdle(opened: OpenedHub, alarms: IdleAlarm, now: number): Promise<void> {
    const minutes = opened.assistant.record.config.handoff.idleEndMinutes;
    const oldest = minutes > 0 ? this.store(opened).oldestActivity() : null;
    if (oldest !== null) await alarms.schedule("handoff-idle", Math.max(now + 1000, oldest + minutes * 60_000));
  }

  /**
   * The `handoff-idle` alarm: takeovers with no message of either side for the owner's
   * `idleEndMinutes` go back to the assistant; the visitor and the owner are told (awaited: the
   * alarm is the object's own work). Armed again for the next one due.
   */
  async endIdle(opened: OpenedHub, alarms: IdleAlarm, now: number): Promise<void> {
    const minutes = opened.assistant.record.config.handoff.idleEndMinutes;
    if (minutes <= 0) return;
    const idleMs = minutes * 60_000;
    const store = this.store(opened);
    const ended = store.idle(now - idleMs).map((s) => store.end(s).session);
    await this.tell(opened, ended);
    const next = store.oldestActivity();
    if (next !== null) await alarms.schedule("handoff-idle", Math.max(now + 1000, next + idleMs));
  }

  /**
   * The assistant was switched off, its key regenerated, or it is being deleted: every handoff
   * ends, and the visitor and the owner are told. Never throws (logged).
   */
  async endAll(opened: OpenedHub): Promise<void> {
    try {
      const store = this.store(opened);
      // Every one ends, however many a bot left waiting; only the first few hundred are told
      // (the rest see it when they next load: their sockets are closed by the same revocation).
      const told: SessionRow[] = [];
      for (let batch = store.handedOff(); batch.length > 0; batch = store.handedOff()) {
        for (const session of batch) {
          const ended = store.end(session).session;
          if (told.length < END_ALL_TOLD) told.push(ended);
        }
      }
      await this.tell(opened, told);
    } catch (error) {
      console.error(JSON.stringify({ event: "handoff-end-all-failed", assistantId: this.assistantId, error: String(error) }));
    }
  }

  /** Tells each ended conversation's visitor and the owner (with the watchers), 50 at a time. */
  private async tell(opened: OpenedHub, ended: SessionRow[]) {
    const rooms = this.ownerAndWatchers(opened);
    for (let i = 0; i < ended.length; i += 50) {
      await Promise.all(
        ended.slice(i, i + 50).map(async (session) => {
          const told = this.telling(opened, session, rooms);
          await deliverToVisitor(this.env, told.sessionId, told.frame);
          await relayToOwners(this.env, told.relay.rooms, told.relay.data);
        }),
      );
    }
  }
}
