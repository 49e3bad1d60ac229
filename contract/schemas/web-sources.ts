/**
 * /api/public-assistants/{id}/sources: an assistant's website sources.
 *
 *   POST   …/sources                       addWebSourceBody → 202 webSourceResponse
 *   GET    …/sources                       → webSourceListResponse
 *   GET    …/sources/{sourceId}/pages      → webPageListResponse
 *   POST   …/sources/{sourceId}/sync       → 202 webSourceResponse
 *   DELETE …/sources/{sourceId}            → 204 (its pages leave the index)
 */
import { z } from "zod";
import { webSources } from "../constants";
import { webSourceMessages as M } from "../messages";

/** An http(s) URL without credentials, normalised by the URL parser (fragment dropped). */
export const webUrlSchema = z
  .string({ error: M.urlRequired })
  .trim()
  .min(1, { error: M.urlRequired })
  .max(webSources.maxUrlChars, { error: M.urlTooLong(webSources.maxUrlChars) })
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.issues.push({ code: "custom", message: M.urlInvalid, input: value });
      return z.NEVER;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.issues.push({ code: "custom", message: M.urlInvalid, input: value });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.issues.push({ code: "custom", message: M.urlCredentials, input: value });
      return z.NEVER;
    }
    url.hash = "";
    return url.href;
  });

export const webSourceScopeSchema = z.enum(webSources.scopes, { error: M.scopeInvalid });
export const webSourceScheduleSchema = z.enum(webSources.schedules, { error: M.scheduleInvalid });
const maxPagesMessage = M.maxPagesRange(webSources.maxMaxPages);

export const addWebSourceBody = z.object({
  url: webUrlSchema,
  scope: webSourceScopeSchema.default("page"),
  maxPages: z
    .number({ error: maxPagesMessage })
    .int({ error: maxPagesMessage })
    .min(1, { error: maxPagesMessage })
    .max(webSources.maxMaxPages, { error: maxPagesMessage })
    .default(webSources.defaultMaxPages),
  schedule: webSourceScheduleSchema.default("off"),
});
export type AddWebSourceBody = z.input<typeof addWebSourceBody>;
export type AddWebSourceInput = z.output<typeof addWebSourceBody>;

/** PATCH-like update of a source's settings (the dashboard's schedule and page-limit controls). */
export const updateWebSourceBody = z.object({
  maxPages: addWebSourceBody.shape.maxPages.removeDefault().optional(),
  schedule: webSourceScheduleSchema.optional(),
});
export type UpdateWebSourceBody = z.input<typeof updateWebSourceBody>;

export const webSourceStatuses = ["queued", "crawling", "ready", "failed"] as const;
export type WebSourceStatus = (typeof webSourceStatuses)[number];

/**
 * A website source as the owner sees it. Counts are of the current (or last) sync: `pagesFound`
 * pages known, `pagesDone` read (indexed or unchanged), `pagesFailed` failed. `error` says why a
 * whole source failed (its start page could not be read).
 */
export const webSourceSchema = z.object({
  _id: z.string(),
  url: z.string(),
  scope: webSourceScopeSchema,
  maxPages: z.number().int(),
  schedule: webSourceScheduleSchema,
  status: z.enum(webSourceStatuses),
  pagesFound: z.number().int(),
  pagesDone: z.number().int(),
  pagesFailed: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.number(),
  lastSyncedAt: z.number().nullable(),
  nextSyncAt: z.number().nullable(),
});
export type WebSource = z.infer<typeof webSourceSchema>;

export const webSourceResponse = z.object({ source: webSourceSchema });
export const webSourceListResponse = z.object({ sources: z.array(webSourceSchema) });
export type WebSourceListResponse = z.infer<typeof webSourceListResponse>;

export const webPageStatuses = ["pending", "indexed", "unchanged", "failed", "removed"] as const;
export type WebPageStatus = (typeof webPageStatuses)[number];

/** One page of a source: `error` says why it failed; `chunkCount` passages indexed from it. */
export const webPageSchema = z.object({
  _id: z.string(),
  url: z.string(),
  title: z.string(),
  status: z.enum(webPageStatuses),
  error: z.string().nullable(),
  chunkCount: z.number().int(),
  fetchedAt: z.number().nullable(),
  changedAt: z.number().nullable(),
});
export type WebPage = z.infer<typeof webPageSchema>;

export const webPageListResponse = z.object({ pages: z.array(webPageSchema) });
export type WebPageListResponse = z.infer<typeof webPageListResponse>;
