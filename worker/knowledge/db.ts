/**
 * D1 has no interactive transactions: multi-statement writes go through `db.batch()`, each batch
 * one implicit transaction. Large writes are cut into batches of `size` statements, so a failure
 * part-way leaves earlier batches committed: callers clean up (see ingest.ts).
 */
export async function runBatches(db: D1Database, statements: D1PreparedStatement[], size = 50): Promise<void> {
  for (let i = 0; i < statements.length; i += size) await db.batch(statements.slice(i, i + size));
}
