/**
 * The one runner of a Durable Object's own SQLite schema, shared by the chat rooms
 * (chat/guest-storage-migrations.ts) and the assistants' objects (assistant/storage-migrations.ts).
 * A schema is an append-only list: an object applies the entries it has not seen, in order, each
 * with its record in `_migrations`, in one transaction; a stored history that is not a prefix of
 * the list (an entry renamed or removed) is refused rather than guessed at. Pure: no
 * `cloudflare:workers` import, so it is unit-tested in Node.
 */
export interface StorageMigration {
  id: string;
  sql: string;
}

/** Which migrations to run, given the ids already applied (in order); throws on a rewritten history. */
export function pendingStorageMigrations(applied: readonly string[], all: readonly StorageMigration[], label: string): readonly StorageMigration[] {
  applied.forEach((id, i) => {
    if (all[i]?.id !== id) throw new Error(`${label} storage migration history does not match: found ${id} at ${i}`);
  });
  return all.slice(applied.length);
}

/** Applies the pending migrations to `storage` (synchronous: call before any other query). */
export function applyStorageMigrations(storage: Pick<DurableObjectStorage, "sql" | "transactionSync">, all: readonly StorageMigration[], label: string): void {
  const { sql } = storage;
  sql.exec("CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const applied = sql
    .exec("SELECT id FROM _migrations ORDER BY rowid")
    .toArray()
    .map((r) => String(r.id));
  for (const migration of pendingStorageMigrations(applied, all, label)) {
    storage.transactionSync(() => {
      sql.exec(migration.sql);
      sql.exec("INSERT INTO _migrations (id, applied_at) VALUES (?, ?)", migration.id, Date.now());
    });
  }
}
