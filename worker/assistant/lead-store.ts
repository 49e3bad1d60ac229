import { leadLimits, leadTriggers, type Lead, type LeadFieldKind, type LeadTrigger, type VerifiedVisitor } from "../../contract";
import { leadSearchText, type LeadValue } from "./lead-values";

/**
 * The leads visitors left, in the assistant's own object's SQLite (0016_leads). Synchronous, like
 * every store of the object; no import from `cloudflare:workers`. Newest first by (created_at,
 * id); a search is a LIKE over the lower-cased values (`search`), paged; the export reads pages
 * after a cursor. `lead_keys` keeps every field key stored with its latest label (the export's
 * header row).
 */

type SqlHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;
type Row = Record<string, SqlStorageValue>;

/** A saved lead (what `lead.created` describes): the owner's shape. */
export type SavedLead = Lead;

/** The export's cursor: the last lead of the page before. */
export type LeadCursor = { createdAt: number; id: string };

const num = (v: SqlStorageValue | undefined) => Number(v ?? 0);
const str = (v: SqlStorageValue | undefined) => (v === null || v === undefined ? "" : String(v));
const kinds: readonly string[] = leadLimits.fieldKinds;
const triggers: readonly string[] = leadTriggers;

/** The stored values (JSON written by this store); anything else is read as no value. */
function parseValues(json: SqlStorageValue | undefined): LeadValue[] {
  try {
    const parsed: unknown = JSON.parse(str(json));
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((v: Partial<LeadValue>) =>
      typeof v?.key === "string" && typeof v.value === "string" && typeof v.label === "string" && kinds.includes(String(v.kind))
        ? [{ key: v.key, kind: v.kind as LeadFieldKind, label: v.label, value: v.value }]
        : [],
    );
  } catch {
    return [];
  }
}

export function toLead(r: Row): SavedLead {
  const trigger = str(r.trigger);
  const sub = str(r.visitor_sub);
  return {
    id: str(r.id),
    sessionId: str(r.session_id),
    createdAt: num(r.created_at),
    values: parseValues(r.fields),
    ...(triggers.includes(trigger) ? { trigger: trigger as LeadTrigger } : {}),
    referrer: str(r.referrer),
    locale: str(r.locale),
    ...(sub ? { visitor: { id: sub, ...(r.visitor_name ? { name: str(r.visitor_name) } : {}), ...(r.visitor_email ? { email: str(r.visitor_email) } : {}) } } : {}),
  };
}

/** `%`, `_` and the escape itself taken literally in a LIKE pattern. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class LeadStore {
  constructor(private readonly storage: SqlHost) {}

  private get sql() {
    return this.storage.sql;
  }

  /** How many leads this conversation sent. */
  countForSession(sessionId: string): number {
    return num(this.sql.exec("SELECT count(*) AS n FROM leads WHERE session_id = ?", sessionId).one().n);
  }

  /** Whether this conversation sent a lead (the form is not offered again). */
  hasLead(sessionId: string): boolean {
    return this.firstAt(sessionId) !== null;
  }

  /** When this conversation sent its first lead (null: none), to place the thank-you line when the widget resumes it. */
  firstAt(sessionId: string): number | null {
    const row = this.sql.exec("SELECT created_at FROM leads WHERE session_id = ? ORDER BY created_at LIMIT 1", sessionId).toArray()[0];
    return row ? num(row.created_at) : null;
  }

  /** Saves one lead and its keys' labels in one transaction; the lead as the owner reads it. */
  save(input: {
    sessionId: string;
    values: LeadValue[];
    trigger?: LeadTrigger | undefined;
    referrer: string;
    locale: string;
    visitor?: VerifiedVisitor | undefined;
    at: number;
  }): SavedLead {
    const id = crypto.randomUUID();
    this.storage.transactionSync(() => {
      this.sql.exec(
        "INSERT INTO leads (id, session_id, created_at, fields, search, trigger, referrer, locale, visitor_sub, visitor_name, visitor_email) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        id,
        input.sessionId,
        input.at,
        JSON.stringify(input.values),
        leadSearchText(input.values),
        input.trigger ?? null,
        input.referrer,
        input.locale,
        input.visitor?.id ?? null,
        input.visitor?.name ?? null,
        input.visitor?.email ?? null,
      );
      for (const v of input.values) {
        this.sql.exec("INSERT INTO lead_keys (key, kind, label) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, label = excluded.label", v.key, v.kind, v.label);
      }
    });
    return toLead(this.sql.exec("SELECT * FROM leads WHERE id = ?", id).one());
  }

  /**
   * The owner may be e-mailed about this lead: fewer than leadLimits.maxOwnerEmailsPerHour went
   * in the last hour for this assistant (many leads at once send a few e-mails, not one each).
   * True (and recorded) when one may go now.
   */
  reserveOwnerEmail(leadId: string, now: number): boolean {
    const lastHour = num(this.sql.exec("SELECT count(*) AS n FROM leads WHERE owner_emailed_at > ?", now - 60 * 60_000).one().n);
    if (lastHour >= leadLimits.maxOwnerEmailsPerHour) return false;
    this.sql.exec("UPDATE leads SET owner_emailed_at = ? WHERE id = ?", now, leadId);
    return true;
  }

  /** One page of leads, newest first; `q` (any case) is looked for in every value. */
  list(input: { page: number; q: string }): { leads: SavedLead[]; total: number; page: number; totalPages: number } {
    const size = leadLimits.pageSize;
    const where = input.q ? "WHERE search LIKE ? ESCAPE '\\'" : "";
    const args = input.q ? [likePattern(input.q)] : [];
    const total = num(this.sql.exec(`SELECT count(*) AS n FROM leads ${where}`, ...args).one().n);
    const rows = this.sql.exec(`SELECT * FROM leads ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, ...args, size, (input.page - 1) * size).toArray();
    return { leads: rows.map(toLead), total, page: input.page, totalPages: Math.max(1, Math.ceil(total / size)) };
  }

  /** The export's page: up to `limit` leads after `after` (newest first), and the cursor of the next page (null: none). */
  page(after: LeadCursor | null, limit: number): { leads: SavedLead[]; next: LeadCursor | null } {
    const rows = after
      ? this.sql.exec("SELECT * FROM leads WHERE created_at < ? OR (created_at = ? AND id < ?) ORDER BY created_at DESC, id DESC LIMIT ?", after.createdAt, after.createdAt, after.id, limit).toArray()
      : this.sql.exec("SELECT * FROM leads ORDER BY created_at DESC, id DESC LIMIT ?", limit).toArray();
    const leads = rows.map(toLead);
    const last = leads.at(-1);
    return { leads, next: last && leads.length === limit ? { createdAt: last.createdAt, id: last.id } : null };
  }

  /** Every field key stored, with its kind and latest label, in the form's usual order (name, e-mail, phone, company, text1…6). */
  keys(): { key: string; kind: LeadFieldKind; label: string }[] {
    const order = (key: string) => {
      const known = ["name", "email", "phone", "company"].indexOf(key);
      return known >= 0 ? known : 4 + Number(key.replace(/\D/g, "") || 0);
    };
    return this.sql
      .exec("SELECT key, kind, label FROM lead_keys")
      .toArray()
      .filter((r) => kinds.includes(str(r.kind)))
      .map((r) => ({ key: str(r.key), kind: str(r.kind) as LeadFieldKind, label: str(r.label) }))
      .sort((a, b) => order(a.key) - order(b.key));
  }
}
