import { desc, eq, sql } from "drizzle-orm";
import type { OutboxEmail } from "../../../contract";
import { devOutbox } from "../../db/schema";
import type { ServiceContext } from "../context";

const MAX_LISTED = 200;

/** The dev outbox, newest first (rowid breaks ties within one millisecond), optionally for one address. */
export async function listOutboxEmails({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { to?: string };
}): Promise<OutboxEmail[]> {
  const to = input.to?.trim().toLowerCase();
  const rows = await ctx.db
    .select()
    .from(devOutbox)
    .where(to ? eq(devOutbox.to, to) : undefined)
    .orderBy(desc(devOutbox.sentAt), desc(sql`rowid`))
    .limit(MAX_LISTED);
  return rows.map((row) => ({ id: row.id, to: row.to, subject: row.subject, text: row.text, code: row.code, sentAt: row.sentAt }));
}
