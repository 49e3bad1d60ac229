import { webhookLimits as L, type Webhook, type WebhookDelivery, type WebhookEventType } from "../../contract";

/**
 * An assistant's webhooks in its own object's SQLite (migration 0017_webhooks): the owner's
 * endpoints (the secret sealed; only its hint leaves), the outbox of recorded events waiting to
 * be fanned out, the events' bodies, and the deliveries with their attempts. Synchronous SQL
 * only; no import from `cloudflare:workers`.
 */

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  sealed: string;
  hint: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: number | null;
  lastAt: number | null;
  lastOk: boolean | null;
  lastStatus: number | null;
  disabledEmailedAt: number | null;
  createdAt: number;
}

export type DeliveryStatus = WebhookDelivery["status"];

export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  type: string;
  createdAt: number;
  status: DeliveryStatus;
  queued: boolean;
  attempts: number;
  firstAttemptAt: number | null;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  responseStatus: number | null;
  durationMs: number | null;
  response: string;
  error: string | null;
}

/** An outcome of one attempt, as the hub saves it on the delivery. */
export interface AttemptRecord {
  status: DeliveryStatus;
  responseStatus: number | null;
  durationMs: number | null;
  response: string;
  error: string | null;
  nextAttemptAt: number | null;
}

type Sql = Pick<DurableObjectStorage, "sql" | "transactionSync">;
type SqlRow = Record<string, SqlStorageValue>;

const num = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? null : Number(v));

function endpointOf(r: SqlRow): EndpointRow {
  let events: WebhookEventType[] = [];
  try {
    const parsed = JSON.parse(String(r.events)) as unknown;
    if (Array.isArray(parsed)) events = parsed.filter((e): e is WebhookEventType => (L.events as readonly string[]).includes(String(e)));
  } catch {
    // A row that does not parse subscribes to nothing.
  }
  return {
    id: String(r.id),
    url: String(r.url),
    description: String(r.description ?? ""),
    events,
    sealed: String(r.secret_sealed),
    hint: String(r.secret_hint),
    enabled: Number(r.enabled) === 1,
    disabledReason: r.disabled_reason === null ? null : String(r.disabled_reason),
    failingSince: num(r.failing_since),
    lastAt: num(r.last_at),
    lastOk: r.last_ok === null ? null : Number(r.last_ok) === 1,
    lastStatus: num(r.last_status),
    disabledEmailedAt: num(r.disabled_emailed_at),
    createdAt: Number(r.created_at),
  };
}

function deliveryOf(r: SqlRow): DeliveryRow {
  return {
    id: String(r.id),
    endpointId: String(r.endpoint_id),
    eventId: String(r.event_id),
    type: String(r.type),
    createdAt: Number(r.created_at),
    status: String(r.status) as DeliveryStatus,
    queued: Number(r.queued) === 1,
    attempts: Number(r.attempts),
    firstAttemptAt: num(r.first_attempt_at),
    lastAttemptAt: num(r.last_attempt_at),
    nextAttemptAt: num(r.next_attempt_at),
    responseStatus: num(r.response_status),
    durationMs: num(r.duration_ms),
    response: String(r.response ?? ""),
    error: r.error === null ? null : String(r.error),
  };
}

/** The endpoint as the owner reads it: never the secret, its hint only. */
export function toWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    ...(row.disabledReason ? { disabledReason: row.disabledReason } : {}),
    ...(row.failingSince !== null ? { failingSince: row.failingSince } : {}),
    ...(row.lastAt !== null ? { lastDelivery: { at: row.lastAt, ok: row.lastOk === true, status: row.lastStatus } } : {}),
    secretHint: row.hint,
    createdAt: row.createdAt,
  };
}

/** The delivery as the owner reads it (the body and the secret stay in the object). */
export function toWebhookDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type as WebhookDelivery["type"],
    createdAt: row.createdAt,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    response: row.response,
    ...(row.error ? { error: row.error } : {}),
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.nextAttemptAt,
  };
}

/** A stored JSON list of ids; [] when it does not parse. */
function parseIds(value: SqlStorageValue | undefined): string[] {
  try {
    const parsed = JSON.parse(String(value)) as unknown;
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * The outbox sweep's queries: queued, unfinished deliveries by due time. Their condition is the
 * partial index's (`webhook_deliveries_unfinished_idx`, storage 0019), word for word: a query
 * that drifts from it scans the table (the webhook security test reads both plans).
 */
export const OVERDUE_SQL =
  "SELECT * FROM webhook_deliveries WHERE queued = 1 AND status IN ('pending', 'retrying') AND coalesce(next_attempt_at, created_at) < ? ORDER BY coalesce(next_attempt_at, created_at) LIMIT ?";
export const NEXT_DUE_SQL = "SELECT min(coalesce(next_attempt_at, created_at)) AS due FROM webhook_deliveries WHERE queued = 1 AND status IN ('pending', 'retrying')";

export class WebhookStore {
  constructor(private readonly storage: Sql) {}

  private get sql() {
    return this.storage.sql;
  }

  // ── Endpoints ──────────────────────────────────────────────────────────────────────────────

  endpoints(): EndpointRow[] {
    return this.sql.exec("SELECT * FROM webhook_endpoints ORDER BY created_at, id").toArray().map(endpointOf);
  }

  endpoint(id: string): EndpointRow | null {
    const [row] = this.sql.exec("SELECT * FROM webhook_endpoints WHERE id = ?", id).toArray();
    return row ? endpointOf(row) : null;
  }

  count(): number {
    return Number(this.sql.exec("SELECT count(*) AS n FROM webhook_endpoints").one().n);
  }

  insertEndpoint(row: { id: string; url: string; description: string; events: readonly string[]; sealed: string; hint: string; createdAt: number }) {
    this.sql.exec(
      "INSERT INTO webhook_endpoints (id, url, description, events, secret_sealed, secret_hint, enabled, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
      row.id,
      row.url,
      row.description,
      JSON.stringify(row.events),
      row.sealed,
      row.hint,
      row.createdAt,
    );
  }

  /** The owner's edit; `enabled: true` clears the streak and the server's reason, `false` leaves no reason (the owner's choice). */
  patchEndpoint(id: string, patch: { url?: string | undefined; events?: readonly string[] | undefined; description?: string | undefined; enabled?: boolean | undefined }) {
    if (patch.url !== undefined) this.sql.exec("UPDATE webhook_endpoints SET url = ? WHERE id = ?", patch.url, id);
    if (patch.events !== undefined) this.sql.exec("UPDATE webhook_endpoints SET events = ? WHERE id = ?", JSON.stringify(patch.events), id);
    if (patch.description !== undefined) this.sql.exec("UPDATE webhook_endpoints SET description = ? WHERE id = ?", patch.description, id);
    if (patch.enabled === true) this.sql.exec("UPDATE webhook_endpoints SET enabled = 1, disabled_reason = NULL, failing_since = NULL WHERE id = ?", id);
    if (patch.enabled === false) this.sql.exec("UPDATE webhook_endpoints SET enabled = 0, disabled_reason = NULL WHERE id = ?", id);
  }

  setSecret(id: string, sealed: string, hint: string) {
    this.sql.exec("UPDATE webhook_endpoints SET secret_sealed = ?, secret_hint = ? WHERE id = ?", sealed, hint, id);
  }

  /** The endpoint, its deliveries, and the events no delivery refers to any more. */
  deleteEndpoint(id: string) {
    this.storage.transactionSync(() => {
      this.sql.exec("DELETE FROM webhook_endpoints WHERE id = ?", id);
      this.sql.exec("DELETE FROM webhook_deliveries WHERE endpoint_id = ?", id);
      this.pruneEvents();
    });
  }

  /** After an attempt: the endpoint's newest outcome and its failing streak (started at `now` when it was not failing). */
  noteOutcome(id: string, ok: boolean, status: number | null, now: number) {
    if (ok) this.sql.exec("UPDATE webhook_endpoints SET last_at = ?, last_ok = 1, last_status = ?, failing_since = NULL WHERE id = ?", now, status, id);
    else this.sql.exec("UPDATE webhook_endpoints SET last_at = ?, last_ok = 0, last_status = ?, failing_since = coalesce(failing_since, ?) WHERE id = ?", now, status, now, id);
  }

  /** The server turns the endpoint off (`reason`); its pending deliveries fail. True when the owner's e-mail is due (at most one per interval). */
  disable(id: string, reason: string, now: number): boolean {
    return this.storage.transactionSync(() => {
      const row = this.endpoint(id);
      if (!row) return false;
      this.sql.exec("UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ? WHERE id = ?", reason, id);
      this.sql.exec(
        "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = ? WHERE endpoint_id = ? AND status IN ('pending', 'retrying')",
        reason,
        id,
      );
      const due = row.disabledEmailedAt === null || now - row.disabledEmailedAt >= L.disabledEmailIntervalMs;
      if (due) this.sql.exec("UPDATE webhook_endpoints SET disabled_emailed_at = ? WHERE id = ?", now, id);
      return due;
    });
  }

  // ── The outbox ─────────────────────────────────────────────────────────────────────────────

  /** One recorded event for `endpointIds`; past `maxOutbox` waiting, the oldest go. Returns how many were dropped. */
  addToOutbox(event: { eventId: string; type: string; createdAt: number; body: string }, endpointIds: readonly string[], maxOutbox: number = L.maxOutbox): number {
    this.sql.exec(
      "INSERT INTO webhook_outbox (event_id, type, created_at, body, endpoints) VALUES (?, ?, ?, ?, ?)",
      event.eventId,
      event.type,
      event.createdAt,
      event.body,
      JSON.stringify(endpointIds),
    );
    // seq only grows and rows leave from the low end, so the newest `maxOutbox` are the seq range below.
    return this.sql.exec("DELETE FROM webhook_outbox WHERE seq <= (SELECT max(seq) FROM webhook_outbox) - ?", maxOutbox).rowsWritten;
  }

  outboxSize(): number {
    return Number(this.sql.exec("SELECT count(*) AS n FROM webhook_outbox").one().n);
  }

  /**
   * Up to `limit` outbox events become deliveries (one per endpoint that still exists and is on),
   * their bodies kept in `webhook_events`; the outbox rows go. Returns how many events moved.
   */
  fanOut(limit: number, now: number, newId: () => string): number {
    return this.storage.transactionSync(() => {
      const rows = this.sql.exec("SELECT * FROM webhook_outbox ORDER BY seq LIMIT ?", limit).toArray();
      if (!rows.length) return 0;
      const enabled = new Set(this.endpoints().filter((e) => e.enabled).map((e) => e.id));
      for (const r of rows) {
        const targets = parseIds(r.endpoints).filter((id) => enabled.has(id));
        if (targets.length) {
          this.sql.exec("INSERT OR IGNORE INTO webhook_events (event_id, type, created_at, body) VALUES (?, ?, ?, ?)", r.event_id, r.type, r.created_at, r.body);
          for (const endpointId of targets) this.insertDelivery({ id: newId(), endpointId, eventId: String(r.event_id), type: String(r.type), createdAt: now });
        }
        this.sql.exec("DELETE FROM webhook_outbox WHERE seq = ?", r.seq);
      }
      return rows.length;
    });
  }

  // ── Events and deliveries ──────────────────────────────────────────────────────────────────

  /** An event sent outside the outbox (a test, a resend keeps the stored one). */
  putEvent(event: { eventId: string; type: string; createdAt: number; body: string }) {
    this.sql.exec("INSERT OR IGNORE INTO webhook_events (event_id, type, created_at, body) VALUES (?, ?, ?, ?)", event.eventId, event.type, event.createdAt, event.body);
  }

  eventBody(eventId: string): string | null {
    const [row] = this.sql.exec("SELECT body FROM webhook_events WHERE event_id = ?", eventId).toArray();
    return row ? String(row.body) : null;
  }

  /**
   * A new delivery waiting to be queued; the endpoint's finished records (delivered, failed) beyond
   * its newest `deliveriesKept` go. One still to be sent stays (the outbox and the retry window
   * bound them) up to `maxKept` (the outbox's bound): past it the oldest go whatever
   * their status, so a burst never drops an event before it went unless it is that large.
   */
  insertDelivery(d: { id: string; endpointId: string; eventId: string; type: string; createdAt: number }, maxKept: number = L.maxOutbox) {
    this.sql.exec(
      "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, type, created_at, status, queued) VALUES (?, ?, ?, ?, ?, 'pending', 0)",
      d.id,
      d.endpointId,
      d.eventId,
      d.type,
      d.createdAt,
    );
    const pruned = this.sql.exec(
      "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND status IN ('delivered', 'failed') AND id NOT IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)",
      d.endpointId,
      d.endpointId,
      L.deliveriesKept,
    ).rowsWritten;
    const dropped = this.sql.exec(
      "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND id NOT IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)",
      d.endpointId,
      d.endpointId,
      maxKept,
    ).rowsWritten;
    if (pruned + dropped > 0) this.pruneEvents();
  }

  delivery(id: string): DeliveryRow | null {
    const [row] = this.sql.exec("SELECT * FROM webhook_deliveries WHERE id = ?", id).toArray();
    return row ? deliveryOf(row) : null;
  }

  /** The endpoint's deliveries, newest first. */
  deliveries(endpointId: string, limit: number = L.deliveriesPageSize): DeliveryRow[] {
    return this.sql
      .exec("SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?", endpointId, limit)
      .toArray()
      .map(deliveryOf);
  }

  /** Deliveries not handed to the queue yet (oldest first). */
  unqueued(limit: number): DeliveryRow[] {
    return this.sql.exec("SELECT * FROM webhook_deliveries WHERE queued = 0 ORDER BY created_at, rowid LIMIT ?", limit).toArray().map(deliveryOf);
  }

  /**
   * Deliveries handed to the queue and not finished whose message should have come before
   * `cutoff`: their next attempt (a retry, or an attempt's lease) or, never tried, their creation.
   */
  overdue(cutoff: number, limit: number): DeliveryRow[] {
    return this.sql.exec(OVERDUE_SQL, cutoff, limit).toArray().map(deliveryOf);
  }

  /** The earliest moment a queued, unfinished delivery is due (null: none). */
  nextDue(): number | null {
    const [row] = this.sql.exec(NEXT_DUE_SQL).toArray();
    return typeof row?.due === "number" ? row.due : null;
  }

  /** Deliveries queued again by the sweep are due at `now`: the new message's attempt goes ahead (an old lease is over). */
  markDue(ids: readonly string[], now: number) {
    for (const id of ids) this.sql.exec("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND status IN ('pending', 'retrying')", now, id);
  }

  markQueued(ids: readonly string[]) {
    for (const id of ids) this.sql.exec("UPDATE webhook_deliveries SET queued = 1 WHERE id = ?", id);
  }

  /**
   * An attempt begins: counted, timed, `pending` again and held until `leaseUntil` (its
   * `next_attempt_at` until the report replaces both): a pending delivery with a next time is in flight.
   */
  beginAttempt(id: string, now: number, leaseUntil: number) {
    this.sql.exec(
      "UPDATE webhook_deliveries SET status = 'pending', attempts = attempts + 1, last_attempt_at = ?, first_attempt_at = coalesce(first_attempt_at, ?), next_attempt_at = ? WHERE id = ?",
      now,
      now,
      leaseUntil,
      id,
    );
  }

  saveAttempt(id: string, outcome: AttemptRecord) {
    this.sql.exec(
      "UPDATE webhook_deliveries SET status = ?, response_status = ?, duration_ms = ?, response = ?, error = ?, next_attempt_at = ? WHERE id = ?",
      outcome.status,
      outcome.responseStatus,
      outcome.durationMs,
      outcome.response,
      outcome.error,
      outcome.nextAttemptAt,
      id,
    );
  }

  /** Bodies no delivery refers to any more. */
  private pruneEvents() {
    this.sql.exec("DELETE FROM webhook_events WHERE event_id NOT IN (SELECT event_id FROM webhook_deliveries)");
  }
}
