import { Hono } from "hono";
import { knowledgeUpload, publicAssistantServerMessages as M } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { AppError, invalid } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { deleteKnowledgeFile } from "../../services/public-assistants/delete-knowledge-file";
import { downloadKnowledgeFile } from "../../services/public-assistants/download-knowledge-file";
import { requirePublicAssistant } from "../../services/public-assistants/find-public-assistant";
import { uploadKnowledgeFiles } from "../../services/public-assistants/upload-knowledge-files";

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
function attachment(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** The files of a multipart form's `files` field (also `files[]`, as some clients name it). */
async function uploadedFiles(request: Request): Promise<File[]> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) throw invalid(M.notMultipart);
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > knowledgeUpload.maxRequestBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", M.uploadTooLarge(Math.floor(knowledgeUpload.maxRequestBytes / (1024 * 1024))));
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw invalid(M.notMultipart);
  }
  const field = knowledgeUpload.fieldName;
  const files = [...form.getAll(field), ...form.getAll(`${field}[]`)].filter((v): v is File => typeof v !== "string");
  if (!files.length) throw invalid(M.noFiles);
  if (files.length > knowledgeUpload.maxFilesPerRequest) throw invalid(M.tooManyFiles(knowledgeUpload.maxFilesPerRequest));
  return files;
}

/** The assistant's knowledge files: upload (ingested before the answer), delete, download the original. */
export const fileRoutes = new Hono<AppEnv>()
  /** POST /:id/files (multipart, repeated field `files`) → 201 { files, processed, failed, message } */
  .post("/:id/files", async (c) => {
    const ctx = serviceContext(c);
    const input = { userId: c.var.user.id, assistantId: c.req.param("id") };
    // Ownership first: another owner's upload is refused before its body is read.
    await requirePublicAssistant({ ctx, input });
    const files = await uploadedFiles(c.req.raw);
    return c.json(await uploadKnowledgeFiles({ ctx, input: { ...input, files } }), 201);
  })
  /** DELETE /:id/files/:fileId → 204; the stored file, its chunks and vectors are gone. */
  .delete("/:id/files/:fileId", async (c) => {
    await deleteKnowledgeFile({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), fileId: c.req.param("fileId") },
    });
    return c.body(null, 204);
  })
  /**
   * GET /:id/files/:fileId/download → the original bytes, as an attachment that no browser
   * renders or runs: CSP `default-src 'none'`, nosniff, the kind's canonical type.
   */
  .get("/:id/files/:fileId/download", async (c) => {
    const file = await downloadKnowledgeFile({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), fileId: c.req.param("fileId") },
    });
    return new Response(file.body, {
      headers: {
        "content-type": file.mimeType,
        "content-length": String(file.size),
        "content-disposition": attachment(file.name),
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
      },
    });
  });
