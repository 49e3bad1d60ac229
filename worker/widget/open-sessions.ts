/**
 * The visitor sessions of one assistant that have a socket open, as its AssistantHub keeps them:
 * each WidgetRoom registers on every connection and unregisters when its last one closes, so a
 * revocation reaches every open widget socket of the assistant (one room per visitor session, so
 * nothing else knows them all).
 *
 * One storage key per session (`open:<sessionId>` → a registration stamp), so a register or an
 * unregister writes one small value whatever the count. Every registration gets a new stamp,
 * increasing within the object: a conditional unregister (`unregister(id, stamp)`) is a no-op
 * once the room registered again, so a close racing a new tab never drops a live socket.
 *
 * Bounded, and never by forgetting a live socket: at `maxOpenSessions` a new registration is
 * refused ("full") and the room closes that socket, so its widget goes on over HTTP (every HTTP
 * call is authorised on its own). Otherwise an attacker holding thousands of sockets open could
 * push a victim's socket out of reach of a revocation. The hub first asks the oldest rooms whether
 * they still have a socket, so rooms that died without closing do not fill it for good.
 *
 * No import from `cloudflare:workers`: unit-tested with an in-memory storage.
 */

export interface OpenSessionsStorage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
}

export const openSessionPrefix = "open:";
export const maxOpenSessions = 5000;

export class OpenSessions {
  private cache: Map<string, number> | undefined;
  private lastStamp = 0;

  constructor(
    private readonly storage: OpenSessionsStorage,
    readonly max = maxOpenSessions,
  ) {}

  /** Registers (again) with a new stamp and returns it; "full" when a new session would pass the bound. */
  async register(sessionId: string, now = Date.now()): Promise<number | "full"> {
    const open = await this.load();
    if (!open.has(sessionId) && open.size >= this.max) return "full";
    const stamp = (this.lastStamp = Math.max(now, this.lastStamp + 1));
    open.set(sessionId, stamp);
    await this.storage.put(openSessionPrefix + sessionId, stamp);
    return stamp;
  }

  /** Forgets a session; with `stamp`, only if it did not register again since. */
  async unregister(sessionId: string, stamp?: number): Promise<void> {
    const open = await this.load();
    const current = open.get(sessionId);
    if (current === undefined || (stamp !== undefined && current !== stamp)) return;
    open.delete(sessionId);
    await this.storage.delete(openSessionPrefix + sessionId);
  }

  /** Every registered session and its stamp, oldest registration first. */
  async entries(): Promise<[sessionId: string, stamp: number][]> {
    return [...(await this.load())].sort((a, b) => a[1] - b[1]);
  }

  /** Whether `sessionId` is registered, as far as this instance knows without reading storage (false before the first read). */
  knownOpen(sessionId: string): boolean {
    return this.cache?.has(sessionId) ?? false;
  }

  async all(): Promise<string[]> {
    return (await this.entries()).map(([id]) => id);
  }

  private async load(): Promise<Map<string, number>> {
    if (!this.cache) {
      const stored = await this.storage.list<number>({ prefix: openSessionPrefix });
      this.cache = new Map([...stored].map(([key, at]) => [key.slice(openSessionPrefix.length), at]));
      for (const stamp of this.cache.values()) this.lastStamp = Math.max(this.lastStamp, stamp);
    }
    return this.cache;
  }
}
