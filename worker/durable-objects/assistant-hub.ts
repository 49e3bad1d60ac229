import { DurableObject } from "cloudflare:workers";
import type { WidgetSocketClose } from "../../contract";
import type { Env } from "../env";
import { getWidgetRoom } from "../widget/get-widget-room";
import { OpenSessions } from "../widget/open-sessions";

/** How many visitor rooms a revocation closes at once. */
const closeConcurrency = 50;
/** How many of the oldest registrations a full hub checks before it refuses a new socket. */
const sweepSize = 20;

/**
 * One public assistant's own Durable Object (named by the assistant's id, SQLite-backed), reached
 * through `getAssistantHub(env, assistantId)`. Today it knows which visitor sessions have a
 * widget socket open (widget/open-sessions.ts): WidgetRoom registers on connection and
 * unregisters when its last socket closes (bounded: see open-sessions.ts), and a revocation (key regenerated, assistant deleted
 * or switched off, origin taken off the allowlist) fans out from here to every such room, so open
 * sockets close within a second instead of at their next message. It is meant to grow into the
 * assistant's own store (knowledge, sessions, counters: DESIGN.md "Runtime modes").
 */
export class AssistantHub extends DurableObject<Env> {
  private readonly sessions = new OpenSessions(this.ctx.storage);

  /**
   * A visitor session's room has a socket open (called on every connection). False when the hub
   * is full even after forgetting rooms that no longer have a socket: the room then closes the
   * socket and its widget goes on over HTTP.
   */
  async register(sessionId: string): Promise<boolean> {
    if ((await this.sessions.register(sessionId)) !== "full") return true;
    await this.forgetIdleRooms((await this.sessions.entries()).slice(0, sweepSize));
    return (await this.sessions.register(sessionId)) !== "full";
  }

  /** A visitor session's room closed its last socket. */
  async unregister(sessionId: string): Promise<void> {
    await this.sessions.unregister(sessionId);
  }

  /**
   * Closes the open widget sockets of this assistant with `close`; with `allowedOrigins`, only
   * those whose origin the list no longer allows. A room left with no socket is forgotten (unless
   * it registered again meanwhile). A room that cannot be reached stays registered (its next frame
   * is refused anyway). Returns how many sockets were closed.
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

  /** Asks rooms whether they still have a socket; forgets those that do not (and did not register again). */
  private async forgetIdleRooms(entries: [string, number][]) {
    const counts = await Promise.allSettled(entries.map(([id]) => getWidgetRoom(this.env, id).openSockets()));
    for (const [j, result] of counts.entries()) {
      if (result.status === "fulfilled" && result.value === 0) await this.sessions.unregister(entries[j]![0], entries[j]![1]);
    }
  }
}
