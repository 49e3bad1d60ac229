import { teamLimits } from "../../contract";

/**
 * The workspace's people's rooms watching an assistant's inbox (POST …/inbox/watch): a lease per room (and per
 * room and conversation, whose reply is streamed to it), in the object's SQLite (`inbox_watchers`,
 * 0015_handoff) and in memory. A visitor turn asks `rooms()` / `forSession()` from memory only, so
 * an assistant nobody watches costs its turns no SQL. Expired leases are dropped when read.
 * Bounded: at most `maxWatchers` leases (the oldest go). No import from `cloudflare:workers`.
 */

type SqlHost = Pick<DurableObjectStorage, "sql">;

/**
 * A room per person of the workspace (at most `teamLimits.maxMembers`, the owner included), each
 * with at most two leases (the inbox, and the one conversation it streams): every person of a
 * full team keeps their leases.
 */
const maxWatchers = teamLimits.maxMembers * 2;
/** How long a drop is remembered: far longer than a request takes from its role check to its watch. */
const droppedMemoryMs = 60_000;

interface Lease {
  room: string;
  /** "" for the whole inbox; a conversation's id for its reply stream. */
  sessionId: string;
  until: number;
}

export class InboxWatchers {
  private leases: Lease[] | null = null;
  /** When each room's leases were last dropped (kept `droppedMemoryMs`): a watch checked before then adds nothing. */
  private readonly dropped = new Map<string, number>();

  constructor(private readonly storage: SqlHost) {}

  /** After `deleteAll`: nothing is watched any more. */
  forget() {
    this.leases = null;
  }

  /**
   * Watches the inbox (and `sessionId`'s replies) from `room` until `until`. `checkedAt`: when the
   * caller's role was read; at or before the room's last `drop` (a removal racing this watch),
   * nothing is added.
   */
  watch(room: string, sessionId: string | undefined, until: number, now = Date.now(), checkedAt?: number) {
    this.pruneDropped(now);
    const dropped = this.dropped.get(room);
    if (checkedAt !== undefined && dropped !== undefined && checkedAt <= dropped) return;
    const leases = this.live(now).filter((l) => !(l.room === room && (l.sessionId === "" || l.sessionId === (sessionId ?? ""))));
    // A room streams one conversation at a time: opening another drops the previous one.
    const kept = sessionId ? leases.filter((l) => !(l.room === room && l.sessionId !== "")) : leases;
    kept.push({ room, sessionId: "", until });
    if (sessionId) kept.push({ room, sessionId, until });
    this.leases = kept.sort((a, b) => b.until - a.until).slice(0, maxWatchers);
    this.storage.sql.exec("DELETE FROM inbox_watchers");
    for (const l of this.leases) this.storage.sql.exec("INSERT INTO inbox_watchers (room, session_id, until) VALUES (?, ?, ?)", l.room, l.sessionId, l.until);
  }

  /** Drops every lease of `room` (a member removed, or whose role no longer answers the inbox); how many went. */
  drop(room: string, now = Date.now()): number {
    this.pruneDropped(now);
    this.dropped.set(room, now);
    const leases = this.live(now);
    const kept = leases.filter((l) => l.room !== room);
    if (kept.length === leases.length) return 0;
    this.leases = kept;
    this.storage.sql.exec("DELETE FROM inbox_watchers WHERE room = ?", room);
    return leases.length - kept.length;
  }

  /** The rooms watching the inbox now (empty when nobody does). */
  rooms(now = Date.now()): string[] {
    const leases = this.live(now);
    if (!leases.length) return [];
    return [...new Set(leases.map((l) => l.room))];
  }

  /** The rooms that opened `sessionId` (its reply is streamed to them). */
  forSession(sessionId: string, now = Date.now()): string[] {
    const leases = this.live(now);
    if (!leases.length) return [];
    return [...new Set(leases.filter((l) => l.sessionId === sessionId).map((l) => l.room))];
  }

  private pruneDropped(now: number) {
    for (const [room, at] of this.dropped) if (at <= now - droppedMemoryMs) this.dropped.delete(room);
  }

  private live(now: number): Lease[] {
    if (!this.leases) {
      this.leases = this.storage.sql
        .exec("SELECT room, session_id, until FROM inbox_watchers")
        .toArray()
        .map((r) => ({ room: String(r.room), sessionId: String(r.session_id), until: Number(r.until) }));
    }
    if (this.leases.some((l) => l.until <= now)) this.leases = this.leases.filter((l) => l.until > now);
    return this.leases;
  }
}
