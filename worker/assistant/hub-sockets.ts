import type { WidgetSocketClose } from "../../contract";
import type { Env } from "../env";
import { getWidgetRoom } from "../durable-objects/stubs";
import { OpenSessions } from "../widget/open-sessions";

/** How many visitor rooms a revocation closes at once. */
const closeConcurrency = 50;
/** How many of the oldest registrations a full hub checks before it refuses a new socket. */
const sweepSize = 20;

/**
 * The visitor rooms of an assistant with a socket open (widget/open-sessions.ts), as its own
 * object keeps them, and the revocation fan-out over them. No import from `cloudflare:workers`.
 */
export class HubSockets {
  private sessions: OpenSessions;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
  ) {
    this.sessions = new OpenSessions(storage);
  }

  /** After `deleteAll`: the in-memory registrations go too. */
  forget() {
    this.sessions = new OpenSessions(this.storage);
  }

  /** False when the hub is full even after forgetting rooms that no longer have a socket. */
  async register(sessionId: string): Promise<boolean> {
    if ((await this.sessions.register(sessionId)) !== "full") return true;
    await this.forgetIdleRooms((await this.sessions.entries()).slice(0, sweepSize));
    return (await this.sessions.register(sessionId)) !== "full";
  }

  /** The sessions with a socket or event stream open now ("live" in the owner's inbox). */
  async openIds(): Promise<Set<string>> {
    return new Set(await this.sessions.all());
  }

  /** Whether `sessionId` has a socket or event stream open, from memory only (false before this instance read the registrations). */
  knownOpen(sessionId: string): boolean {
    return this.sessions.knownOpen(sessionId);
  }

  async unregister(sessionId: string): Promise<void> {
    await this.sessions.unregister(sessionId);
  }

  /**
   * Closes the open widget sockets with `close`; with `allowedOrigins`, only those whose origin the
   * list no longer allows. A room left with no socket is forgotten (unless it registered again
   * meanwhile). A room that cannot be reached stays registered (its next frame is refused anyway:
   * the copy was refreshed first). Returns how many sockets were closed.
   */
  async revoke(close: WidgetSocketClose, allowedOrigins?: readonly string[]): Promise<number> {
    const entries = await this.sessions.entries();
    let closed = 0;
    for (let i = 0; i < entries.length; i += closeConcurrency) {
      const batch = entries.slice(i, i + closeConcurrency);
      const results = await Promise.allSettled(batch.map(([id]) => getWidgetRoom(this.env, id).closeAll(close, allowedOrigins)));
      for (const [j, result] of results.entries()) {
        const [sessionId, stamp] = batch[j]!;
        if (result.status === "rejected") {
          console.error(JSON.stringify({ event: "widget-socket-revocation-failed", sessionId, error: String(result.reason) }));
          continue;
        }
        closed += result.value.closed;
        if (result.value.open === 0) await this.sessions.unregister(sessionId, stamp);
      }
    }
    return closed;
  }

  /**
   * Closes the signed-in visitors' sockets of the rooms `verified` names (the identity
   * secret that verified them stopped), so they reconnect and are verified again. Same batches and
   * bookkeeping as `revoke`. Returns how many sockets were closed.
   */
  async reverify(verified: (sessionId: string) => boolean): Promise<number> {
    const entries = (await this.sessions.entries()).filter(([id]) => verified(id));
    let closed = 0;
    for (let i = 0; i < entries.length; i += closeConcurrency) {
      const batch = entries.slice(i, i + closeConcurrency);
      const results = await Promise.allSettled(batch.map(([id]) => getWidgetRoom(this.env, id).closeVerified()));
      for (const [j, result] of results.entries()) {
        const [sessionId, stamp] = batch[j]!;
        if (result.status === "rejected") {
          console.error(JSON.stringify({ event: "widget-socket-reverify-failed", sessionId, error: String(result.reason) }));
          continue;
        }
        closed += result.value.closed;
        if (result.value.open === 0) await this.sessions.unregister(sessionId, stamp);
      }
    }
    return closed;
  }

  /** Asks rooms whether they still have a socket; forgets those that do not (and did not register again). */
  private async forgetIdleRooms(entries: [string, number][]) {
    const counts = await Promise.allSettled(entries.map(([id]) => getWidgetRoom(this.env, id).openSockets()));
    for (const [j, result] of counts.entries()) {
      if (result.status === "fulfilled" && result.value === 0) await this.sessions.unregister(entries[j]![0], entries[j]![1]);
    }
  }
}
