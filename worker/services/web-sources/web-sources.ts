import { webSourceMessages as M, webSources, type AddWebSourceInput, type UpdateWebSourceBody, type WebPage, type WebSource } from "../../../contract";
import { hubWebSources } from "../../assistant/hub-web-sources";
import { isLocal } from "../../env";
import { AppError, notFound } from "../../http/errors";
import { isBlockedHostname, resolvePublic } from "../../knowledge/web/address";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { knowledgeStores } from "../public-assistants/knowledge-stores";
import { dropPageVectors } from "./drop-page-vectors";
import { enqueueCrawl } from "./enqueue-crawl";

/**
 * An assistant's website sources (GET/POST/DELETE …/sources, …/sync, …/pages). Ownership is
 * checked in D1; the sources, their pages and the crawl's state live in the assistant's own object
 * (assistant/web-source-store.ts), and the crawl runs in the queue consumer (crawl-source.ts).
 */

type Owner = { userId: string; assistantId: string };

/** The assistant's sources (hub calls answer null only for a deleted assistant: a 404 then). */
async function sourcesOf(ctx: ServiceContext, input: Owner) {
  const assistant = await requirePublicAssistant({ ctx, input });
  return { assistantId: assistant.id, hub: hubWebSources(ctx.env, assistant.id) };
}

export async function listWebSources({ ctx, input }: { ctx: ServiceContext; input: Owner }): Promise<WebSource[]> {
  const { hub } = await sourcesOf(ctx, input);
  return (await hub.list()) ?? [];
}

export async function listWebPages({ ctx, input }: { ctx: ServiceContext; input: Owner & { sourceId: string } }): Promise<WebPage[]> {
  const { hub } = await sourcesOf(ctx, input);
  if (!(await hub.get(input.sourceId))) throw new AppError("NOT_FOUND", M.sourceNotFound);
  return (await hub.pages(input.sourceId)) ?? [];
}

/**
 * Adds a source and queues its first sync. The address must be public (in production: its host
 * resolves to public addresses only; locally loopback is allowed). 202: the crawl runs in the background.
 */
export async function addWebSource({ ctx, input }: { ctx: ServiceContext; input: Owner & AddWebSourceInput }): Promise<WebSource> {
  const { hub, assistantId } = await sourcesOf(ctx, input);
  await requirePublicUrl(ctx, input.url);
  const added = await hub.add({ url: input.url, scope: input.scope, maxPages: input.maxPages, schedule: input.schedule }, Date.now());
  if (!added) throw notFound();
  if (!added.ok) {
    throw added.reason === "too-many" ? new AppError("VALIDATION_ERROR", M.tooManySources(webSources.maxSources)) : new AppError("CONFLICT", M.duplicateSource);
  }
  if (!(await enqueueCrawl(ctx.env, [{ assistantId, sourceId: added.source._id, syncId: added.syncId }]))) await hub.requeueSoon(added.source._id, added.syncId);
  return (await hub.get(added.source._id)) ?? added.source;
}

export async function updateWebSource({ ctx, input }: { ctx: ServiceContext; input: Owner & { sourceId: string; changes: UpdateWebSourceBody } }): Promise<WebSource> {
  const { hub } = await sourcesOf(ctx, input);
  const updated = await hub.update(input.sourceId, input.changes, Date.now());
  if (!updated) throw new AppError("NOT_FOUND", M.sourceNotFound);
  return updated;
}

/** Starts a sync now. 409 when one is under way. */
export async function syncWebSource({ ctx, input }: { ctx: ServiceContext; input: Owner & { sourceId: string } }): Promise<WebSource> {
  const { hub, assistantId } = await sourcesOf(ctx, input);
  const started = await hub.startSync(input.sourceId, Date.now());
  if (!started || (!started.ok && started.reason === "missing")) throw new AppError("NOT_FOUND", M.sourceNotFound);
  if (!started.ok) throw new AppError("CONFLICT", M.syncRunning);
  if (!(await enqueueCrawl(ctx.env, [{ assistantId, sourceId: input.sourceId, syncId: started.syncId }]))) await hub.requeueSoon(input.sourceId, started.syncId);
  return (await hub.get(input.sourceId)) ?? started.source;
}

/** Removes a source: its pages leave the index at once (chunks, then vectors). */
export async function deleteWebSource({ ctx, input }: { ctx: ServiceContext; input: Owner & { sourceId: string } }): Promise<void> {
  const { hub, assistantId } = await sourcesOf(ctx, input);
  const removed = await hub.remove(input.sourceId);
  if (!removed) throw new AppError("NOT_FOUND", M.sourceNotFound);
  await dropPageVectors(knowledgeStores(ctx.env).vectors, assistantId, removed);
}


/** In production a source must be a public address (its host resolved now; every fetch and redirect is checked again). */
async function requirePublicUrl(ctx: ServiceContext, url: string) {
  if (isLocal(ctx.env)) return;
  const { hostname, port } = new URL(url);
  if (isBlockedHostname(hostname)) throw new AppError("VALIDATION_ERROR", M.urlNotPublic);
  if (port) throw new AppError("VALIDATION_ERROR", M.urlPort);
  const resolved = await resolvePublic(hostname, (i, init) => fetch(i, init));
  if (!resolved.ok) throw new AppError("VALIDATION_ERROR", resolved.reason === "not-public" ? M.urlNotPublic : M.urlUnresolvable);
}
