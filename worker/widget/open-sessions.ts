/**
 * The visitor sessions of one assistant that have a socket open, as its AssistantHub keeps them:
 * each WidgetRoom registers on a connection and unregisters when its last one closes, so a
 * revocation reaches every open widget socket of the assistant (one room per visitor session, so
 * nothing else knows them all).
 *
 * One storage key per session (`open:<sessionId>` → when it registered), so a register or an
 * unregister writes one small value whatever the count. Bounded: past `maxOpenSessions` the
 * oldest registration is forgotten. A forgotten room is not closed by a revocation, but it still
 * refuses the next frame (WidgetRoom re-reads the assistant on every message), so the bound
 * costs the one-second promise for the oldest sockets only, never the refusal.
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

  constructor(
    private readonly storage: OpenSessionsStorage,
    private readonly max = maxOpenSessions,
  ) {}

  /** Idempotent: a session already registered costs no write. */
  async register(sessionId: string, now = Date.now()): Promise<void> {
    const open = await this.load();
    if (open.has(sessionId)) return;
    while (open.size >= this.max) {
      let oldest: [string, number] | undefined;
      for (const entry of open) if (!oldest || entry[1] < oldest[1]) oldest = entry;
      if (!oldest) break;
      open.delete(oldest[0]);
      await this.storage.delete(openSessionPrefix + oldest[0]);
    }
    open.set(sessionId, now);
    await this.storage.put(openSessionPrefix + sessionId, now);
  }

  async unregister(sessionId: string): Promise<void> {
    const open = await this.load();
    if (!open.delete(sessionId)) return;
    await this.storage.delete(openSessionPrefix + sessionId);
  }

  async all(): Promise<string[]> {
    return [...(await this.load()).keys()];
  }

  private async load(): Promise<Map<string, number>> {
    if (!this.cache) {
      const stored = await this.storage.list<number>({ prefix: openSessionPrefix });
      this.cache = new Map([...stored].map(([key, at]) => [key.slice(openSessionPrefix.length), at]));
    }
    return this.cache;
  }
}
