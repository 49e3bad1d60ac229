/**
 * Privacy: how long an assistant keeps its visitors' conversations, one conversation's or one
 * visitor's deletion, a visitor's export (the right of access), the widget's notice. Limits:
 * `privacyLimits`; messages: `privacyMessages`. Each is recorded in the audit log (schemas/team.ts).
 *
 *   config.retentionDays: 30 | 90 | 365 | null (keep; the default) and config.retentionIncludesLeads
 *     on PUT /api/public-assistants/{id}: conversations whose last activity is older are deleted
 *     daily by the assistant's object, in bounded batches (messages, attachments in R2, ratings,
 *     and their leads when `retentionIncludesLeads`); Insights' day counts stay.
 *   config.customization.privacyNotice / privacyUrl: a line (and a link) the widget shows at its
 *     composer's foot; GET /api/widget/config carries each only when set (schemas/widget.ts).
 *
 *   DELETE /api/public-assistants/{id}/chats/{sessionId}         → 204 (again: 204; idempotent)
 *   DELETE /api/public-assistants/{id}/visitors/{visitorId}      → visitorDeletion
 *   GET    /api/public-assistants/{id}/visitors/{visitorId}/export → visitorExport (JSON attachment)
 *
 * `visitorId` is a signed visitor's id (their `sub`: every conversation of theirs and their leads),
 * or, for an anonymous visitor, the id of one of their conversations (that conversation and its lead).
 */
import { z } from "zod";
import { privacyLimits as L } from "../constants";
import { privacyMessages as M } from "../messages";

export const retentionDaysSchema = z
  .union([z.literal(30), z.literal(90), z.literal(365), z.null()], { error: M.retentionInvalid(L.retentionDays) })
  .describe("retentionDays");

export const privacyNoticeSchema = z.string({ error: M.noticeTooLong(L.maxNoticeChars) }).trim().max(L.maxNoticeChars, { error: M.noticeTooLong(L.maxNoticeChars) });
export const privacyUrlSchema = z
  .string({ error: M.noticeUrlInvalid })
  .trim()
  .max(L.maxNoticeUrlChars, { error: M.noticeUrlTooLong(L.maxNoticeUrlChars) })
  .refine((u) => u === "" || /^https:\/\/[^\s/]+\.[^\s]*$/i.test(u), { error: M.noticeUrlInvalid });
