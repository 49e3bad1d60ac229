/**
 * What this isolate learnt about API keys from D1: a key's hash → what it names (its assistant),
 * for the key's whole life (a regenerated key is a new hash), so an entry is never stale, only
 * possibly revoked. It authorises nothing: the assistant's own object checks the key against its
 * copy on every call (assistant/assistant-copy.ts). Bounded: past `max` entries the oldest goes;
 * with `maxAgeMs`, an entry older than that is not answered (the caller reads D1 again), which bounds
 * how long a change the object was never told of (a worker version before it) goes unseen.
 * One per kind of key: the widget's publishable keys (widget/key-directory.ts) and /v1's secret
 * keys (services/secret-keys/secret-key-directory.ts).
 */
export class KeyDirectory<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly max: number,
    private readonly maxAgeMs = Infinity,
  ) {}

  get(keyHash: string): V | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.maxAgeMs) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.value;
  }

  remember(keyHash: string, value: V) {
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { value, at: Date.now() });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  forget(keyHash: string) {
    this.entries.delete(keyHash);
  }
}
