/**
 * The revoked Tala tokens a user's chat room remembers, in the room's own storage (no D1 read on
 * the socket path: checking a frame is a lookup in memory once the record is loaded).
 *
 * Why the room keeps them at all: the worker authenticates a socket against D1 and only then
 * forwards it to the room, so a socket authenticated a moment before a revocation committed can
 * reach the room just after the room closed that token's sockets. The room refuses it in
 * onConnect because the token is on this list. Entries expire with the token itself (nothing can
 * present an expired token), and the list is bounded: past `maxRevokedTokens` the entries that
 * expire soonest go first (tokens are issued with the same lifetime, so those are the oldest).
 *
 * No import from `cloudflare:workers`: unit-tested with an in-memory storage.
 */

export interface RevokedToken {
  /** auth_tokens.id, never the token or its hash. */
  id: string;
  /** When the token would have expired anyway: the entry is forgotten then. */
  expiresAt: number;
}

/** The part of DurableObjectStorage this uses. */
export interface RevocationStorage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
}

export const revokedTokensKey = "revoked-tokens";
export const maxRevokedTokens = 1000;

export const accountClosedKey = "account-closed";

export class TokenRevocations {
  private cache: Map<string, number> | undefined;
  private closed: boolean | undefined;

  constructor(private readonly storage: RevocationStorage) {}

  /**
   * True when `tokenId` was revoked and has not expired yet, or when the account was deleted
   * (then every credential is, Firebase ones included: user ids are never reused). A socket
   * without a token id (Firebase) is otherwise never revoked here.
   */
  async isRevoked(tokenId: string | undefined, now = Date.now()): Promise<boolean> {
    if (await this.isAccountClosed()) return true;
    if (!tokenId) return false;
    const expiresAt = (await this.load()).get(tokenId);
    return expiresAt !== undefined && expiresAt > now;
  }

  /** Records revoked tokens (idempotent), pruning expired entries and keeping the list bounded. */
  async add(tokens: readonly RevokedToken[], now = Date.now()): Promise<void> {
    const current = await this.load();
    for (const token of tokens) if (token.expiresAt > now) current.set(token.id, token.expiresAt);
    const kept = [...current].filter(([, expiresAt]) => expiresAt > now);
    kept.sort((a, b) => b[1] - a[1]);
    const next = new Map(kept.slice(0, maxRevokedTokens));
    this.cache = next;
    await this.storage.put(revokedTokensKey, [...next]);
  }

  /** The account was deleted: from now on the room refuses every socket and frame. Permanent. */
  async closeAccount(): Promise<void> {
    this.closed = true;
    await this.storage.put(accountClosedKey, true);
  }

  async isAccountClosed(): Promise<boolean> {
    this.closed ??= (await this.storage.get<boolean>(accountClosedKey)) === true;
    return this.closed;
  }

  private async load(): Promise<Map<string, number>> {
    this.cache ??= new Map((await this.storage.get<[string, number][]>(revokedTokensKey)) ?? []);
    return this.cache;
  }
}
