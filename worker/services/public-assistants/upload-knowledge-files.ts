import { unlessGone } from "../../assistant/gone";
import {
  knowledgeMessages,
  successMessages,
  type ErrorCode,
  type KnowledgeUploadResponse,
  type KnowledgeUploadResult,
} from "../../../contract";
import { AppError } from "../../http/errors";
import { ingestFile, isKnowledgeError, type KnowledgeError } from "../../knowledge";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { checkContent, checkDeclaredFile, uploadedName } from "./check-knowledge-upload";
import { enqueueEmbeddings } from "./enqueue-embeddings";
import { requirePublicAssistant } from "./find-public-assistant";
import { knowledgeIndex } from "./knowledge-stores";
import { knowledgeFileKey } from "./storage";

type Outcome = { result: KnowledgeUploadResult; code?: ErrorCode };

/**
 * Adds files to an assistant's knowledge base, one at a time: check (extension, size, declared
 * type, content) → store in R2 → file record in the assistant's own object → ingest (extract,
 * chunk, FTS there) before answering. Each file succeeds or fails alone; a failed file leaves no R2 object, row or chunk.
 * Landed files are queued for embedding when an embedder is configured.
 *
 * When no file landed it throws: 413 when every file was too large, 415 when every file had an
 * unsupported type, 422 otherwise, with the reasons joined as the `error` and per file in `fields`.
 */
export async function uploadKnowledgeFiles({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; files: File[] };
}): Promise<KnowledgeUploadResponse> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const outcomes: Outcome[] = [];
  for (const file of input.files) outcomes.push(await addFile(ctx, assistant.id, file));

  const landed = outcomes.filter((o) => !o.code).map((o) => o.result);
  const failures = outcomes.filter((o) => o.code);
  if (landed.length === 0) {
    const codes = new Set(failures.map((f) => f.code));
    const [only] = codes;
    const code: ErrorCode = codes.size === 1 && (only === "PAYLOAD_TOO_LARGE" || only === "UNSUPPORTED_MEDIA_TYPE") ? only : "UNPROCESSABLE";
    const reasons = failures.map((f) => f.result.error ?? "");
    throw new AppError(code, reasons.join(" "), { fields: Object.fromEntries(reasons.map((r, i) => [`files.${i}`, r])) });
  }
  await enqueueEmbeddings(ctx.env, assistant.id, landed.map((f) => f._id));
  return {
    files: outcomes.map((o) => o.result),
    processed: landed.length,
    failed: failures.length,
    message: successMessages.filesProcessed(landed.length),
  };
}

async function addFile(ctx: ServiceContext, assistantId: string, file: File): Promise<Outcome> {
  const name = uploadedName(file.name);
  const fileId = crypto.randomUUID();
  const uploadedAt = Date.now();
  const failed = (error: KnowledgeError): Outcome => ({
    result: { _id: fileId, name, size: file.size, uploadedAt, status: "failed", error: error.message, chunkCount: 0 },
    code: error.code,
  });

  let bytes: Uint8Array;
  let mimeType: string;
  try {
    checkDeclaredFile(name, file.size, file.type);
    bytes = new Uint8Array(await file.arrayBuffer());
    mimeType = checkContent(name, bytes).mimeType;
  } catch (error) {
    if (isKnowledgeError(error)) return failed(error);
    throw error;
  }

  // Read now: extraction may transfer (detach) the buffer, e.g. to the PDF parser.
  const size = bytes.byteLength;
  const r2Key = knowledgeFileKey(assistantId, fileId, name);
  const hub = reachAssistantHub(ctx.env, assistantId);
  const discard = async () => {
    await hub.knowledge().removeFile(fileId).catch(() => undefined);
    await ctx.env.FILES.delete(r2Key).catch(() => undefined);
  };
  try {
    await ctx.env.FILES.put(r2Key, bytes, {
      httpMetadata: { contentType: mimeType },
      customMetadata: { assistantId, fileId },
    });
    if (unlessGone(await hub.knowledge().addFile({ id: fileId, name, size, mimeType, r2Key, uploadedAt }), false) !== true) throw new Error("file record not added");
    const ingested = await ingestFile({ index: knowledgeIndex(ctx.env, assistantId), files: ctx.env.FILES, assistantId, fileId, name, bytes });
    if (!ingested.ok) {
      await discard();
      return failed(ingested.error);
    }
    return {
      result: {
        _id: fileId,
        name,
        size,
        uploadedAt,
        status: "ready",
        error: null,
        chunkCount: ingested.chunkCount,
        ...(ingested.warning ? { warning: ingested.warning } : {}),
      },
    };
  } catch (error) {
    // Storage or database failure (or the assistant deleted meanwhile): this file fails alone.
    console.error(JSON.stringify({ assistantId, fileId, error: String(error) }));
    await discard();
    return {
      result: { _id: fileId, name, size: file.size, uploadedAt, status: "failed", error: knowledgeMessages.processingFailed(name), chunkCount: 0 },
      code: "UNPROCESSABLE",
    };
  }
}
