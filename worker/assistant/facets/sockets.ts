import { RpcTarget } from "cloudflare:workers";
import type { WidgetRemaining, WidgetSocketClose } from "../../../contract";
import { widgetAccess, type AccessDenied } from "../assistant-copy";
import type { HubCore } from "../hub-core";
import { limitSub } from "./visitors";

export type SocketOpened = { denied: AccessDenied } | { denied: null; remaining: WidgetRemaining | null; limits: { maxMessagesPerSession: number; dailyLimit: number } };

/**
 * `hub.sockets()`: the visitor rooms (WidgetRoom) with a socket open (hub-sockets.ts), so a
 * revocation fans out from here and open sockets close within a second. An erased assistant
 * keeps nothing: registering answers true (nothing will revoke) and `opened` refuses the socket.
 */
export class SocketsFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /** A socket connected (WidgetRoom.onConnect): may it stay, and what is left to send. */
  async opened(input: { keyHash: string; origin: string; sessionId: string }): Promise<SocketOpened> {
    const opened = await this.#core.open();
    const denied = widgetAccess(opened?.assistant ?? "missing", input.keyHash, input.origin);
    if (denied || !opened) return { denied: denied ?? "unavailable" };
    const { config } = opened.assistant.record;
    const limits = { maxMessagesPerSession: config.maxMessagesPerSession, dailyLimit: config.dailyLimit };
    const session = opened.store.openSession(input.sessionId);
    return { denied: null, remaining: session ? opened.store.remaining({ sessionId: session.id, ...limits, userSub: limitSub(opened, session) }) : null, limits };
  }

  /**
   * A visitor session's room has a socket open (called on every connection). False when the
   * object is full even after forgetting rooms that no longer have a socket: the room then closes
   * the socket and its widget goes on over HTTP.
   */
  async register(sessionId: string): Promise<boolean> {
    if (this.#core.gate.erased()) return true;
    return this.#core.sockets.register(sessionId);
  }

  /** A visitor session's room closed its last socket. */
  async unregister(sessionId: string): Promise<void> {
    if (!this.#core.gate.erased()) await this.#core.sockets.unregister(sessionId);
  }

  /** Closes the open widget sockets (with `allowedOrigins`: those the list no longer allows). Returns how many were closed. */
  revoke(close: WidgetSocketClose, allowedOrigins?: readonly string[]): Promise<number> {
    return this.#core.sockets.revoke(close, allowedOrigins);
  }
}
