import { unlessGone } from "../../assistant/gone";
import { knowledgeTextUi, qaMessages, type KnowledgeTextResponse } from "../../../contract";
import { reachAssistantHub } from "../../durable-objects/stubs";
import { AppError } from "../../http/errors";
import { ingestText, isKnowledgeError, knowledgeTextMimeType, reindexText, type KnowledgeFileRecord } from "../../knowledge";
import type { ServiceContext } from "../context";
import { findKnowledgeFile } from "./delete-knowledge-file";
import { enqueueEmbeddings } from "./enqueue-embeddings";
import { requirePublicAssistant } from "./find-public-assistant";
import { knowledgeIndex, knowledgeStores } from "./knowledge-stores";
import { knowledgeFileKey } from "./storage";
import { toKnowledgeFile } from "./to-public-assistant";

/**
 * Text snippets: knowledge the owner types in the dashboard, kept as a knowledge file of kind
 * "text". Its title is the record's name (the source visitors see), its content a Markdown object
 * in R2 under a new key per version (the record names the current one), indexed as an uploaded
 * .md is (knowledge/ingest-text.ts). Listed, searched, downloaded and deleted with the files.
 */

type TextInput = { userId: string; assistantId: string; title: string; content: string };
type TextRef = { userId: string; assistantId: string; fileId: string };

const textNotFound = () => new AppError("NOT_FOUND", qaMessages.textNotFound);

/** A version's R2 key: beside an uploaded file's, one object per saved version. */
const versionKey = (assistantId: string, fileId: string) => knowledgeFileKey(assistantId, fileId, `text-${Date.now()}-${crypto.randomUUID().slice(0, 8)}.md`);

async function putVersion(ctx: ServiceContext, assistantId: string, fileId: string, content: string) {
  const bytes = new TextEncoder().encode(content);
  const r2Key = versionKey(assistantId, fileId);
  await ctx.env.FILES.put(r2Key, bytes, { httpMetadata: { contentType: `${knowledgeTextMimeType}; charset=utf-8` }, customMetadata: { assistantId, fileId } });
  return { r2Key, size: bytes.byteLength };
}

const answer = (record: KnowledgeFileRecord, content: string): KnowledgeTextResponse => ({
  file: toKnowledgeFile({ ...record, kind: "text" }),
  title: record.name,
  content,
});

/** The owner's snippet (owner from D1, record from the assistant's object); 404 for anything else, a file that is not a text included. */
async function requireText(ctx: ServiceContext, input: TextRef) {
  const file = await findKnowledgeFile({ ctx, input });
  if (file?.kind !== "text") throw textNotFound();
  return file;
}

/**
 * POST …/texts: stores the content in R2, adds the record (processing) and indexes it before
 * answering, like an upload; queued for embedding when an embedder is configured. A snippet that
 * cannot be indexed leaves no object or record and answers its reason (422).
 */
export async function createKnowledgeText({ ctx, input }: { ctx: ServiceContext; input: TextInput }): Promise<KnowledgeTextResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const assistantId = assistant.id;
  const fileId = crypto.randomUUID();
  const hub = reachAssistantHub(ctx.env, assistantId);
  const { r2Key, size } = await putVersion(ctx, assistantId, fileId, input.content);
  const discard = async () => {
    await hub.knowledge().removeFile(fileId).catch(() => undefined);
    await ctx.env.FILES.delete(r2Key).catch(() => undefined);
  };
  const record = { id: fileId, name: input.title, size, mimeType: knowledgeTextMimeType, r2Key, uploadedAt: Date.now(), kind: "text" as const };
  try {
    if (unlessGone(await hub.knowledge().addFile(record), false) !== true) throw new Error("text record not added");
    const ingested = await ingestText({ index: knowledgeIndex(ctx.env, assistantId), assistantId, fileId, title: input.title, content: input.content });
    if (!ingested.ok) throw new AppError(ingested.error.code, ingested.error.message, { fields: { content: ingested.error.message } });
    await enqueueEmbeddings(ctx.env, assistantId, [fileId]);
    return answer({ ...record, status: "ready", error: null, chunkCount: ingested.chunkCount }, input.content);
  } catch (error) {
    await discard();
    throw error;
  }
}

/** GET …/texts/{fileId}: the title and the current version's content, to edit. */
export async function getKnowledgeText({ ctx, input }: { ctx: ServiceContext; input: TextRef }): Promise<KnowledgeTextResponse> {
  const file = await requireText(ctx, input);
  const object = await ctx.env.FILES.get(file.r2Key);
  if (!object) throw textNotFound();
  return answer(file, await object.text());
}

/**
 * PUT …/texts/{fileId}: the new version stored under a new R2 key, then indexed again in one
 * step (`reindexText`: the old passages and the new swap in one transaction, with the record's
 * title, size and key), then the previous version's object removed and the new passages queued
 * for embedding. Any failure leaves the snippet as it was and removes the new object.
 */
export async function updateKnowledgeText({ ctx, input }: { ctx: ServiceContext; input: TextInput & { fileId: string } }): Promise<KnowledgeTextResponse> {
  const file = await requireText(ctx, input);
  const { assistantId } = file;
  const { r2Key, size } = await putVersion(ctx, assistantId, file.id, input.content);
  let result: Awaited<ReturnType<typeof reindexText>>;
  try {
    result = await reindexText({
      index: knowledgeIndex(ctx.env, assistantId),
      assistantId,
      fileId: file.id,
      title: input.title,
      content: input.content,
      changes: { name: input.title, size, r2Key },
      vectors: knowledgeStores(ctx.env).vectors,
    });
  } catch (error) {
    await ctx.env.FILES.delete(r2Key).catch(() => undefined);
    if (isKnowledgeError(error)) throw new AppError(error.code, error.message, { fields: { content: error.message } });
    throw error;
  }
  if (!result.ok) {
    await ctx.env.FILES.delete(r2Key).catch(() => undefined);
    if (result.reason === "missing") throw textNotFound();
    console.error(JSON.stringify({ fileId: file.id, vectorError: result.error }));
    throw new AppError("SERVICE_UNAVAILABLE", knowledgeTextUi.indexUnavailable);
  }
  // The key the record held when it changed (another save may have come between).
  if (result.previousR2Key !== r2Key) await ctx.env.FILES.delete(result.previousR2Key).catch(() => undefined);
  await enqueueEmbeddings(ctx.env, assistantId, [file.id]);
  return answer({ ...file, name: input.title, size, r2Key, status: "ready", error: null, chunkCount: result.chunkCount }, input.content);
}
