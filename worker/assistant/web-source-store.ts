import { webSourceMessages, webSources, type WebPage, type WebPageStatus, type WebSource, type WebSourceSchedule, type WebSourceScope, type WebSourceStatus } from "../../contract";

/**
 * An assistant's website sources and their pages, in its own Durable Object's SQLite (storage
 * migration 0006), with the crawl's state: which sync is current, which pages it found and which
 * it has done. The crawl itself runs in the queue consumer (services/web-sources/crawl-source.ts),
 * which asks this store, through the hub, what to fetch next and tells it what it found; one run at
 * a time per source (`lease_until`). A page's text is indexed as a knowledge file (id
 * `pageFileId(page)`, `source_id` and `url` set), so search, answers and sources treat it like a file.
 * Synchronous; no import from `cloudflare:workers`.
 *
 * A sync: `startSync` gives the source a new `sync_id` and marks the start page seen in it; the
 * runner claims pages seen in the sync and not yet done (`next`), reports each (`pageFetched`,
 * `pageIndexed`, `pageFailed`, `pageUnchanged`), adds the links or sitemap entries it found
 * (`addPages`, up to the source's page limit), and `finish`es when none is left: pages the sync did
 * not see are removed from the index.
 */

type Row = Record<string, SqlStorageValue>;
type Host = Pick<DurableObjectStorage, "sql" | "transactionSync">;

/** How long a run holds a source (renewed by each claim): a run fetches at most `pagesPerRun` pages. */
export const CRAWL_LEASE_MS = 5 * 60 * 1000;
/** A syncing source no run has touched for this long is handed to a new run (the hub's alarm). */
export const CRAWL_STALL_MS = 10 * 60 * 1000;

/** The knowledge file a page is indexed as. */
export const pageFileId = (pageId: string) => `web_${pageId}`;

/** A page as the runner needs it. */
export interface CrawlPage {
  id: string;
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** Whether the page's text is indexed now (a conditional request may then skip it). */
  indexed: boolean;
}

/** A file the store removed from the index: its vectors are the caller's to delete. */
export interface RemovedFile {
  fileId: string;
  chunkIds: number[];
}

export type RunStart =
  | { run: "go"; source: WebSource; robots: string | null; followLinks: boolean }
  /** The sync is no longer current (a newer one, the source removed): drop the message. */
  | { run: "stale" }
  /** Another run holds the source: try the message again later. */
  | { run: "busy" };

export type AddSourceResult = { ok: true; source: WebSource; syncId: string } | { ok: false; reason: "too-many" | "duplicate" };

const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : String(v));
const num = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : Number(v));

export function nextSyncAt(schedule: WebSourceSchedule, from: number): number | null {
  return schedule === "off" ? null : from + webSources.scheduleMs[schedule];
}

export class WebSourceStore {
  constructor(private readonly storage: Host) {}

  private get sql() {
    return this.storage.sql;
  }

  // ── The owner's view ────────────────────────────────────────────────────────────────────────

  list(): WebSource[] {
    return this.sql.exec("SELECT * FROM web_sources ORDER BY created_at DESC, id DESC").toArray().map((r) => this.toSource(r));
  }

  get(sourceId: string): WebSource | null {
    const [row] = this.sql.exec("SELECT * FROM web_sources WHERE id = ?", sourceId).toArray();
    return row ? this.toSource(row) : null;
  }

  /** The source's pages of its current (or last) sync, then the ones it removed, in the order found. */
  pages(sourceId: string): WebPage[] {
    return this.sql
      .exec(
        `SELECT p.* FROM web_pages p JOIN web_sources s ON s.id = p.source_id
         WHERE p.source_id = ? ORDER BY (p.seen_sync IS s.sync_id) DESC, p.found_at, p.id LIMIT ?`,
        sourceId,
        webSources.maxMaxPages * 2,
      )
      .toArray()
      .map((r) => ({
        _id: String(r.id),
        url: String(r.url),
        title: String(r.title ?? ""),
        status: String(r.status) as WebPageStatus,
        error: str(r.error),
        chunkCount: Number(r.chunk_count),
        fetchedAt: num(r.fetched_at),
        changedAt: num(r.changed_at),
      }));
  }

  add(input: { url: string; scope: WebSourceScope; maxPages: number; schedule: WebSourceSchedule }, now: number): AddSourceResult {
    return this.storage.transactionSync((): AddSourceResult => {
      const count = Number(this.sql.exec("SELECT count(*) AS n FROM web_sources").one().n);
      if (count >= webSources.maxSources) return { ok: false, reason: "too-many" };
      if (this.sql.exec("SELECT 1 FROM web_sources WHERE url = ?", input.url).toArray().length) return { ok: false, reason: "duplicate" };
      const id = crypto.randomUUID();
      const maxPages = input.scope === "page" ? 1 : input.maxPages;
      this.sql.exec(
        `INSERT INTO web_sources (id, url, scope, max_pages, schedule, status, created_at, next_sync_at)
         VALUES (?, ?, ?, ?, ?, 'queued', ?, NULL)`,
        id,
        input.url,
        input.scope,
        maxPages,
        input.schedule,
        now,
      );
      const syncId = this.beginSync(id, input.url, now);
      return { ok: true, source: this.get(id)!, syncId };
    });
  }

  /** New page limit and/or schedule; the next scheduled sync moves with the schedule. Null: no such source. */
  update(sourceId: string, changes: { maxPages?: number | undefined; schedule?: WebSourceSchedule | undefined }, now: number): WebSource | null {
    const source = this.get(sourceId);
    if (!source) return null;
    const schedule = changes.schedule ?? source.schedule;
    const maxPages = source.scope === "page" ? 1 : (changes.maxPages ?? source.maxPages);
    const next = source.status === "queued" || source.status === "crawling" ? null : nextSyncAt(schedule, source.lastSyncedAt ?? now);
    this.sql.exec("UPDATE web_sources SET schedule = ?, max_pages = ?, next_sync_at = ? WHERE id = ?", schedule, maxPages, next, sourceId);
    return this.get(sourceId);
  }

  /** Starts a new sync of the source. `running`: one is under way (its run holds the source). */
  startSync(sourceId: string, now: number): { ok: true; source: WebSource; syncId: string } | { ok: false; reason: "missing" | "running" } {
    return this.storage.transactionSync(() => {
      const [row] = this.sql.exec("SELECT url, status, lease_until, active_at FROM web_sources WHERE id = ?", sourceId).toArray();
      if (!row) return { ok: false as const, reason: "missing" as const };
      const syncing = row.status === "queued" || row.status === "crawling";
      if (syncing && Number(row.active_at) > now - CRAWL_STALL_MS) return { ok: false as const, reason: "running" as const };
      const syncId = this.beginSync(sourceId, String(row.url), now);
      return { ok: true as const, source: this.get(sourceId)!, syncId };
    });
  }

  /**
   * Removes a source: its pages' knowledge files and chunks leave the index at once (returned, for
   * their vectors), then the source and its pages. Null: no such source.
   */
  remove(sourceId: string): RemovedFile[] | null {
    return this.storage.transactionSync(() => {
      if (!this.sql.exec("SELECT 1 FROM web_sources WHERE id = ?", sourceId).toArray().length) return null;
      const files = this.sql.exec("SELECT id FROM knowledge_files WHERE source_id = ?", sourceId).toArray().map((r) => String(r.id));
      const removed = files.map((fileId) => this.removeFile(fileId));
      this.sql.exec("DELETE FROM web_pages WHERE source_id = ?", sourceId);
      this.sql.exec("DELETE FROM web_sources WHERE id = ?", sourceId);
      return removed;
    });
  }

  // ── The crawl (called by the queue consumer's run, through the hub) ─────────────────────────

  /**
   * A run begins: null when the sync is no longer current (a newer sync, the source removed) or
   * another run holds the source. `fresh`: no page of this sync is done yet (discover the site).
   */
  runStart(sourceId: string, syncId: string, now: number): RunStart {
    return this.storage.transactionSync((): RunStart => {
      const [row] = this.sql.exec("SELECT sync_id, status, lease_until, robots, follow_links FROM web_sources WHERE id = ?", sourceId).toArray();
      if (!row || row.sync_id !== syncId || (row.status !== "queued" && row.status !== "crawling")) return { run: "stale" };
      if (Number(row.lease_until) > now) return { run: "busy" };
      this.sql.exec("UPDATE web_sources SET status = 'crawling', lease_until = ?, active_at = ? WHERE id = ?", now + CRAWL_LEASE_MS, now, sourceId);
      const robots = str(row.robots);
      return { run: "go", source: this.get(sourceId)!, robots, followLinks: Number(row.follow_links) === 1 };
    });
  }

  /** The sync's first run read the site's robots.txt (kept for its later runs) and chose how to find pages. */
  setSyncMode(sourceId: string, syncId: string, robots: string, followLinks: boolean, now: number) {
    this.sql.exec(
      "UPDATE web_sources SET robots = ?, follow_links = ?, lease_until = ?, active_at = ? WHERE id = ? AND sync_id = ?",
      robots.slice(0, webSources.maxRobotsBytes),
      followLinks ? 1 : 0,
      now + CRAWL_LEASE_MS,
      now,
      sourceId,
      syncId,
    );
  }

  /**
   * The sync cannot go on (robots.txt or the start page could not be read for a passing reason, or
   * the address is not public): it ends with `error`, changing nothing in the index. The source
   * shows its last complete sync again (failed when it never had one).
   */
  abandon(sourceId: string, syncId: string, error: string, now: number) {
    this.storage.transactionSync(() => {
      const [row] = this.sql.exec("SELECT sync_id, last_sync_id, schedule FROM web_sources WHERE id = ?", sourceId).toArray();
      if (!row || row.sync_id !== syncId) return;
      if (row.last_sync_id !== null) {
        // The pages of the last complete sync that this one touched (its start page, pages that failed for a passing reason) count with it again.
        this.sql.exec(
          `UPDATE web_pages SET seen_sync = ?1, done_sync = ?1 WHERE source_id = ?2 AND seen_sync = ?3 AND (done_sync = ?3 OR done_sync = ?1)`,
          row.last_sync_id,
          sourceId,
          syncId,
        );
      }
      this.sql.exec(
        "UPDATE web_sources SET sync_id = ?, status = 'failed', error = ?, lease_until = 0, active_at = ?, next_sync_at = ? WHERE id = ?",
        row.last_sync_id ?? syncId,
        error,
        now,
        nextSyncAt(row.schedule as WebSourceSchedule, now),
        sourceId,
      );
    });
  }

  /** A run could not be queued: the sync counts as stalled at once, so the object's alarm queues it again. */
  requeueSoon(sourceId: string, syncId: string) {
    this.sql.exec("UPDATE web_sources SET active_at = 0, lease_until = 0 WHERE id = ? AND sync_id = ?", sourceId, syncId);
  }

  /** The run hands over (a continuation message is queued): the next run may start at once. */
  runEnd(sourceId: string, syncId: string, now: number) {
    this.sql.exec("UPDATE web_sources SET lease_until = 0, active_at = ? WHERE id = ? AND sync_id = ?", now, sourceId, syncId);
  }

  /** Pages found for this sync (links, sitemap entries), up to the source's page limit. Returns how many were new to the sync. */
  addPages(sourceId: string, syncId: string, urls: readonly string[], now: number): number {
    return this.storage.transactionSync(() => {
      const [row] = this.sql.exec("SELECT max_pages, sync_id FROM web_sources WHERE id = ?", sourceId).toArray();
      if (!row || row.sync_id !== syncId) return 0;
      this.sql.exec("UPDATE web_sources SET lease_until = ?, active_at = ? WHERE id = ?", now + CRAWL_LEASE_MS, now, sourceId);
      let room = Number(row.max_pages) - Number(this.sql.exec("SELECT count(*) AS n FROM web_pages WHERE source_id = ? AND seen_sync = ?", sourceId, syncId).one().n);
      let added = 0;
      for (const url of urls) {
        if (room <= 0) break;
        const cursor = this.sql.exec(
          `INSERT INTO web_pages (id, source_id, url, status, seen_sync, found_at) VALUES (?, ?, ?, 'pending', ?, ?)
           ON CONFLICT (source_id, url) DO UPDATE SET seen_sync = excluded.seen_sync, found_at = excluded.found_at
           WHERE web_pages.seen_sync IS NOT excluded.seen_sync`,
          crypto.randomUUID(),
          sourceId,
          url,
          syncId,
          now + added,
        );
        if (cursor.rowsWritten > 0) {
          room--;
          added++;
        }
      }
      return added;
    });
  }

  /** The next page of the sync to fetch (renews the run's lease), or null when all are done or the sync is stale. */
  next(sourceId: string, syncId: string, now: number): CrawlPage | null {
    const [source] = this.sql.exec("SELECT sync_id FROM web_sources WHERE id = ?", sourceId).toArray();
    if (!source || source.sync_id !== syncId) return null;
    this.sql.exec("UPDATE web_sources SET lease_until = ?, active_at = ? WHERE id = ?", now + CRAWL_LEASE_MS, now, sourceId);
    const [row] = this.sql
      .exec(
        `SELECT p.id, p.url, p.etag, p.last_modified, f.status AS file_status FROM web_pages p
         LEFT JOIN knowledge_files f ON f.id = 'web_' || p.id
         WHERE p.source_id = ? AND p.seen_sync = ? AND p.done_sync IS NOT ? ORDER BY p.found_at, p.id LIMIT 1`,
        sourceId,
        syncId,
        syncId,
      )
      .toArray();
    if (!row) return null;
    return { id: String(row.id), url: String(row.url), etag: str(row.etag), lastModified: str(row.last_modified), indexed: row.file_status === "ready" };
  }

  /** The page failed. `keep`: a passing failure (5xx, timeout): its indexed text stays until a sync reads it again. */
  pageFailed(pageId: string, syncId: string, error: string, keep: boolean, now: number): RemovedFile[] {
    return this.storage.transactionSync(() => {
      const removed = keep ? [] : this.dropPageFile(pageId);
      this.sql.exec(
        `UPDATE web_pages SET status = 'failed', error = ?, done_sync = ?, fetched_at = ?${keep ? "" : ", chunk_count = 0, content_hash = NULL, etag = NULL, last_modified = NULL"} WHERE id = ?`,
        error,
        syncId,
        now,
        pageId,
      );
      return removed;
    });
  }

  /** 304 Not Modified, or the same text as the indexed one: nothing to index. */
  pageUnchanged(pageId: string, syncId: string, validators: { etag: string | null; lastModified: string | null }, now: number) {
    this.sql.exec(
      `UPDATE web_pages SET status = 'unchanged', error = NULL, done_sync = ?, fetched_at = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified) WHERE id = ?`,
      syncId,
      now,
      validators.etag,
      validators.lastModified,
      pageId,
    );
  }

  /**
   * The page's text was read (its SHA-256 `hash`): unchanged (same text as indexed), a duplicate of
   * another page of this source read in this sync (failed, `error`), or to index: the knowledge file
   * record is (re)created, processing, named by the title, and its id returned.
   */
  pageFetched(
    input: { pageId: string; syncId: string; hash: string; title: string; url: string; size: number; etag: string | null; lastModified: string | null; duplicateError: string },
    now: number,
  ): { action: "unchanged" } | { action: "duplicate"; removed: RemovedFile[] } | { action: "index"; fileId: string } {
    return this.storage.transactionSync(() => {
      const [page] = this.sql.exec("SELECT source_id, content_hash FROM web_pages WHERE id = ?", input.pageId).toArray();
      if (!page) return { action: "duplicate" as const, removed: [] };
      const fileId = pageFileId(input.pageId);
      const [file] = this.sql.exec("SELECT status FROM knowledge_files WHERE id = ?", fileId).toArray();
      if (page.content_hash === input.hash && file?.status === "ready") {
        this.pageUnchanged(input.pageId, input.syncId, input, now);
        this.sql.exec("UPDATE web_pages SET title = ? WHERE id = ?", input.title, input.pageId);
        return { action: "unchanged" as const };
      }
      const [twin] = this.sql
        .exec(
          `SELECT id FROM web_pages WHERE source_id = ? AND content_hash = ? AND id != ? AND done_sync = ? AND status IN ('indexed', 'unchanged') LIMIT 1`,
          page.source_id,
          input.hash,
          input.pageId,
          input.syncId,
        )
        .toArray();
      if (twin) return { action: "duplicate" as const, removed: this.pageFailed(input.pageId, input.syncId, input.duplicateError, false, now) };
      const name = (input.title || input.url).slice(0, 300);
      this.sql.exec(
        `INSERT INTO knowledge_files (id, name, size, mime_type, r2_key, status, uploaded_at, source_id, url)
         VALUES (?, ?, ?, 'text/html', '', 'processing', ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, size = excluded.size, status = 'processing', error = NULL, url = excluded.url`,
        fileId,
        name,
        input.size,
        now,
        page.source_id,
        input.url,
      );
      this.sql.exec(
        "UPDATE web_pages SET title = ?, etag = ?, last_modified = ? WHERE id = ?",
        input.title,
        input.etag,
        input.lastModified,
        input.pageId,
      );
      return { action: "index" as const, fileId };
    });
  }

  /** The page's chunks are stored and its file ready. */
  pageIndexed(pageId: string, syncId: string, hash: string, chunkCount: number, now: number) {
    this.sql.exec(
      `UPDATE web_pages SET status = 'indexed', error = NULL, done_sync = ?, fetched_at = ?, changed_at = ?, content_hash = ?, chunk_count = ? WHERE id = ?`,
      syncId,
      now,
      now,
      hash,
      chunkCount,
      pageId,
    );
  }

  /**
   * Ends the sync when no page is left: pages it did not see leave the index (returned, for their
   * vectors) and show as removed; the source is ready (failed, with the start page's reason, when
   * no page could be read) and its next scheduled sync set. Null: pages are left, or the sync is stale.
   */
  finish(sourceId: string, syncId: string, now: number): RemovedFile[] | null {
    return this.storage.transactionSync(() => {
      const [source] = this.sql.exec("SELECT sync_id, schedule, url FROM web_sources WHERE id = ?", sourceId).toArray();
      if (!source || source.sync_id !== syncId) return null;
      const left = this.sql.exec("SELECT 1 FROM web_pages WHERE source_id = ? AND seen_sync = ? AND done_sync IS NOT ? LIMIT 1", sourceId, syncId, syncId).toArray();
      if (left.length) return null;
      const read = Number(
        this.sql.exec("SELECT count(*) AS n FROM web_pages WHERE source_id = ? AND seen_sync = ? AND status IN ('indexed', 'unchanged')", sourceId, syncId).one().n,
      );
      const [start] = this.sql.exec("SELECT error FROM web_pages WHERE source_id = ? AND url = ?", sourceId, source.url).toArray();
      if (read === 0) {
        // Nothing could be read (the start page failed): an outage must not empty the index.
        this.abandon(sourceId, syncId, str(start?.error) ?? webSourceMessages.page.unreachable, now);
        return [];
      }
      // Pages removed by an earlier sync go now; the ones this sync did not see are removed.
      this.sql.exec("DELETE FROM web_pages WHERE source_id = ? AND status = 'removed' AND seen_sync IS NOT ?", sourceId, syncId);
      const gone = this.sql.exec("SELECT id FROM web_pages WHERE source_id = ? AND seen_sync IS NOT ?", sourceId, syncId).toArray().map((r) => String(r.id));
      const removed = gone.flatMap((id) => this.dropPageFile(id));
      this.sql.exec("UPDATE web_pages SET status = 'removed', error = NULL, chunk_count = 0, content_hash = NULL, etag = NULL, last_modified = NULL WHERE source_id = ? AND seen_sync IS NOT ?", sourceId, syncId);
      this.sql.exec(
        "UPDATE web_sources SET status = 'ready', error = NULL, last_sync_id = ?, lease_until = 0, active_at = ?, last_synced_at = ?, next_sync_at = ? WHERE id = ?",
        syncId,
        now,
        now,
        nextSyncAt(source.schedule as WebSourceSchedule, now),
        sourceId,
      );
      return removed;
    });
  }

  /** Sources whose scheduled sync is due, and syncs no run has touched for CRAWL_STALL_MS (their messages were lost). */
  due(now: number): { resync: string[]; stalled: { sourceId: string; syncId: string }[] } {
    const resync = this.sql
      .exec("SELECT id FROM web_sources WHERE status IN ('ready', 'failed') AND next_sync_at IS NOT NULL AND next_sync_at <= ?", now)
      .toArray()
      .map((r) => String(r.id));
    const stalled = this.sql
      .exec("SELECT id, sync_id FROM web_sources WHERE status IN ('queued', 'crawling') AND lease_until <= ? AND active_at <= ?", now, now - CRAWL_STALL_MS)
      .toArray()
      .map((r) => ({ sourceId: String(r.id), syncId: String(r.sync_id) }));
    // Queued again now: they count as stalled only if this run is lost too.
    for (const s of stalled) this.sql.exec("UPDATE web_sources SET active_at = ? WHERE id = ?", now, s.sourceId);
    return { resync, stalled };
  }

  /** When the hub's alarm should next look at the sources: the earliest scheduled sync, or a stall check while one syncs. */
  nextWake(now: number): number | null {
    const row = this.sql
      .exec(
        `SELECT min(CASE WHEN status IN ('queued', 'crawling') THEN max(active_at, lease_until) + ? ELSE next_sync_at END) AS at
         FROM web_sources WHERE status IN ('queued', 'crawling') OR next_sync_at IS NOT NULL`,
        CRAWL_STALL_MS,
      )
      .one();
    return row.at === null ? null : Math.max(Number(row.at), now + 1000);
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────────

  /** A new sync id; the start page is its first page. */
  private beginSync(sourceId: string, url: string, now: number): string {
    const syncId = crypto.randomUUID();
    this.sql.exec("UPDATE web_sources SET sync_id = ?, status = 'queued', error = NULL, robots = NULL, follow_links = 0, lease_until = 0, active_at = ?, next_sync_at = NULL WHERE id = ?", syncId, now, sourceId);
    this.sql.exec(
      `INSERT INTO web_pages (id, source_id, url, status, seen_sync, found_at) VALUES (?, ?, ?, 'pending', ?, ?)
       ON CONFLICT (source_id, url) DO UPDATE SET seen_sync = excluded.seen_sync, found_at = excluded.found_at`,
      crypto.randomUUID(),
      sourceId,
      url,
      syncId,
      now,
    );
    return syncId;
  }

  /** Removes a page's knowledge file and chunks (FTS rows by trigger); returns them for the vectors. */
  private dropPageFile(pageId: string): RemovedFile[] {
    return this.sql.exec("SELECT id FROM knowledge_files WHERE id = ?", pageFileId(pageId)).toArray().length ? [this.removeFile(pageFileId(pageId))] : [];
  }

  private removeFile(fileId: string): RemovedFile {
    const chunkIds = this.sql.exec("SELECT id FROM knowledge_chunks WHERE file_id = ? ORDER BY id", fileId).toArray().map((r) => Number(r.id));
    this.sql.exec("DELETE FROM knowledge_chunks WHERE file_id = ?", fileId);
    this.sql.exec("DELETE FROM knowledge_files WHERE id = ?", fileId);
    return { fileId, chunkIds };
  }

  private toSource(r: Row): WebSource {
    const id = String(r.id);
    const syncId = str(r.sync_id);
    const counts = this.sql
      .exec(
        `SELECT count(*) AS found,
                coalesce(sum(CASE WHEN done_sync = ?1 AND status IN ('indexed', 'unchanged') THEN 1 ELSE 0 END), 0) AS done,
                coalesce(sum(CASE WHEN done_sync = ?1 AND status = 'failed' THEN 1 ELSE 0 END), 0) AS failed
         FROM web_pages WHERE source_id = ?2 AND seen_sync = ?1`,
        syncId,
        id,
      )
      .one();
    return {
      _id: id,
      url: String(r.url),
      scope: String(r.scope) as WebSourceScope,
      maxPages: Number(r.max_pages),
      schedule: String(r.schedule) as WebSourceSchedule,
      status: String(r.status) as WebSourceStatus,
      pagesFound: Number(counts.found),
      pagesDone: Number(counts.done),
      pagesFailed: Number(counts.failed),
      error: str(r.error),
      createdAt: Number(r.created_at),
      lastSyncedAt: num(r.last_synced_at),
      nextSyncAt: num(r.next_sync_at),
    };
  }
}
