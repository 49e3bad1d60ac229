import { type IdentitySecretCreated, type IdentitySecretStatus } from "../../contract";
import { generateIdentitySecret, importIdentitySecret, maskIdentitySecret, verifyVisitorToken, type VisitorTokenResult } from "../crypto/visitor-token";
import type { Env } from "../env";
import { openAssistantSecret, sealAssistantSecret } from "../services/public-assistants/api-key-encryption";

/**
 * An assistant's visitor identity secrets, in its own object's SQLite
 * (`identity_secrets`, migration 0007_visitor_identity): the current one and, after a rotation,
 * the previous one until its `expires_at` (the grace the owner picked). Each is sealed with the
 * secret box under ENCRYPTION_KEY (api-key-encryption.ts), bound to the assistant's id; the
 * owner sees it once, at creation, then only masked. Verification happens here, next to the
 * sessions, with no D1 read: the opened HMAC keys are kept in memory per sealed value, so a
 * token costs one or two HMACs after the first use. No import from `cloudflare:workers`.
 */

interface SecretRow {
  slot: "current" | "previous";
  sealed: string;
  masked: string;
  createdAt: number;
  expiresAt: number | null;
}

const HOUR_MS = 60 * 60 * 1000;
/** meta key: when the previous secret's grace ends, until the hub's alarm has verified the open sockets again. */
const GRACE_END_KEY = "identity_grace_end";
const sealContext = (assistantId: string) => `identity-secret:${assistantId}`;

export class IdentitySecretStore {
  constructor(private readonly storage: Pick<DurableObjectStorage, "sql" | "transactionSync">) {}

  /** The current secret and the previous one while its grace lasts (an expired one is deleted). */
  secrets(now = Date.now()): { current: SecretRow | null; previous: SecretRow | null } {
    this.storage.sql.exec("DELETE FROM identity_secrets WHERE slot = 'previous' AND expires_at <= ?", now);
    const rows = this.storage.sql.exec("SELECT * FROM identity_secrets").toArray();
    const read = (slot: SecretRow["slot"]): SecretRow | null => {
      const r = rows.find((row) => row.slot === slot);
      return r
        ? { slot, sealed: String(r.sealed), masked: String(r.masked), createdAt: Number(r.created_at), expiresAt: r.expires_at === null ? null : Number(r.expires_at) }
        : null;
    };
    return { current: read("current"), previous: read("previous") };
  }

  status(now = Date.now()): IdentitySecretStatus {
    const { current, previous } = this.secrets(now);
    return {
      current: current ? { masked: current.masked, createdAt: current.createdAt } : null,
      previous: previous ? { masked: previous.masked, createdAt: previous.createdAt, expiresAt: previous.expiresAt ?? now } : null,
    };
  }

  /**
   * The new secret becomes current; the one it replaces keeps verifying for `graceHours` (0: it
   * stops now). A previous secret still in its grace is replaced: only one rotated-out secret is kept.
   */
  rotate(input: { sealed: string; masked: string; graceHours: number; now: number }) {
    this.storage.transactionSync(() => {
      const { current } = this.secrets(input.now);
      this.storage.sql.exec("DELETE FROM identity_secrets");
      this.storage.sql.exec("DELETE FROM meta WHERE key = ?", GRACE_END_KEY);
      if (current && input.graceHours > 0) {
        this.storage.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?)", GRACE_END_KEY, String(input.now + input.graceHours * HOUR_MS));
        this.storage.sql.exec(
          "INSERT INTO identity_secrets (slot, sealed, masked, created_at, expires_at) VALUES ('previous', ?, ?, ?, ?)",
          current.sealed,
          current.masked,
          current.createdAt,
          input.now + input.graceHours * HOUR_MS,
        );
      }
      this.storage.sql.exec(
        "INSERT INTO identity_secrets (slot, sealed, masked, created_at, expires_at) VALUES ('current', ?, ?, ?, NULL)",
        input.sealed,
        input.masked,
        input.now,
      );
    });
  }

  /** Ends the previous secret's grace now. */
  endGrace() {
    this.storage.transactionSync(() => {
      this.storage.sql.exec("DELETE FROM identity_secrets WHERE slot = 'previous'");
      this.storage.sql.exec("DELETE FROM meta WHERE key = ?", GRACE_END_KEY);
    });
  }

  /** When a grace still to be followed by a check of the open sockets ends (the hub's alarm), or null. */
  graceEnd(): number | null {
    const [row] = this.storage.sql.exec("SELECT value FROM meta WHERE key = ?", GRACE_END_KEY).toArray();
    return row ? Number(row.value) : null;
  }

  /** True once, when the grace has ended by `now`: the caller verifies the open sockets again. */
  takeEndedGrace(now: number): boolean {
    const end = this.graceEnd();
    if (end === null || end > now) return false;
    this.storage.sql.exec("DELETE FROM meta WHERE key = ?", GRACE_END_KEY);
    return true;
  }
}

/**
 * The hub's half of visitor identity: creating or rotating the secret (sealed before it is
 * stored) and verifying tokens against the secrets in force. Its cache of opened HMAC keys is
 * per instance and keyed by the sealed value, so a rotated-out or deleted secret is never used
 * once its row is gone (the rows are read on every verification).
 */
export class HubIdentity {
  private readonly keys = new Map<string, Promise<CryptoKey | null>>();

  constructor(
    private readonly storage: Pick<DurableObjectStorage, "sql" | "transactionSync">,
    private readonly env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">,
  ) {}

  private get store() {
    return new IdentitySecretStore(this.storage);
  }

  status(now = Date.now()): IdentitySecretStatus {
    return this.store.status(now);
  }

  /** Creates the first secret or rotates (throws when ENCRYPTION_KEY is unusable: the hub turns that into a sentinel). */
  async rotate(assistantId: string, graceHours: number, now = Date.now()): Promise<IdentitySecretCreated> {
    const secret = generateIdentitySecret();
    const sealed = await sealAssistantSecret(this.env, sealContext(assistantId), secret);
    this.store.rotate({ sealed, masked: maskIdentitySecret(secret), graceHours, now });
    return { ...this.store.status(now), secret };
  }

  endGrace(now = Date.now()): IdentitySecretStatus {
    this.store.endGrace();
    return this.store.status(now);
  }

  /** When the previous secret's grace ends (the hub's alarm wakes then), or null. */
  graceEnd(): number | null {
    return this.store.graceEnd();
  }

  takeEndedGrace(now = Date.now()): boolean {
    return this.store.takeEndedGrace(now);
  }

  /**
   * The visitor a token names, verified with the current secret, then the previous one while its
   * grace lasts. Never throws: a secret that cannot be opened (ENCRYPTION_KEY changed or missing)
   * is logged and does not verify anything.
   */
  async verify(assistantId: string, token: string, now = Date.now()): Promise<VisitorTokenResult> {
    const { current, previous } = this.store.secrets(now);
    const rows = [current, previous].filter((r): r is SecretRow => r !== null);
    const keys = (await Promise.all(rows.map((r) => this.key(assistantId, r.sealed)))).filter((k): k is CryptoKey => k !== null);
    // Secrets exist but none could be opened: refused as a token this assistant cannot verify.
    if (rows.length && !keys.length) return verifyVisitorToken(token, [await unusableKey()], now);
    return verifyVisitorToken(token, keys, now);
  }

  private key(assistantId: string, sealed: string): Promise<CryptoKey | null> {
    let key = this.keys.get(sealed);
    if (!key) {
      key = openAssistantSecret(this.env, sealContext(assistantId), sealed)
        .then((secret) => (secret === null ? null : importIdentitySecret(secret)))
        .catch((error: unknown) => {
          console.error(JSON.stringify({ event: "identity-secret-unreadable", assistantId, error: String(error) }));
          return null;
        });
      if (this.keys.size > 8) this.keys.clear();
      this.keys.set(sealed, key);
    }
    return key;
  }
}

/** A key no token is signed with (random, never stored): a refusal that still runs an HMAC. Made on first use (no randomness at module scope in workerd). */
let unusable: Promise<CryptoKey> | null = null;
const unusableKey = () => (unusable ??= importIdentitySecret(generateIdentitySecret()));
