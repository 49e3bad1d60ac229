import { KeyDirectory } from "../../http/key-directory";

/**
 * How long an isolate answers a key from memory before reading it in D1 again. A revoke that did
 * not tell the assistant's object (one served by a worker version before the object held the
 * secret keys, during a gradual deployment or a rollback) leaves that object's copy holding the
 * key; without this bound every isolate that knew the key would keep it working for its whole life.
 */
export const secretKeyDirectoryMaxAgeMs = 5 * 60_000;

/** What this isolate learnt of a secret key from D1: its assistant, its id, and when it was last recorded as used (moved by `touchSecretKey`). */
export interface KnownSecretKey {
  assistantId: string;
  secretKey: { id: string; lastUsedAt: number | null };
}

/**
 * /v1's secret keys this isolate has read from D1 (http/key-directory.ts): a call with a key it
 * knows reads nothing from D1. It authorises nothing: the assistant's own object checks the key
 * against the secret keys in use in its copy on every call (`apiAccess`), and a create or a revoke
 * settles that copy before it answers (authorize-secret-key-call.ts).
 */
export const secretKeyDirectory = new KeyDirectory<KnownSecretKey>(2000, secretKeyDirectoryMaxAgeMs);
