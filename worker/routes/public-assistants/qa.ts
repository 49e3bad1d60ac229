import { Hono } from "hono";
import { qaBody, qaLimits, qaListQuery, qaMessages as M, qaPatchBody } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { AppError, invalid } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { jsonBody, toValidationError } from "../../http/validate";
import { createQa, deleteQa, exportQa, getQa, importQa, listQa, updateQa } from "../../services/qa/curated-answers";
import { requirePublicAssistant } from "../../services/public-assistants/find-public-assistant";

const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", M.importTooLarge(Math.floor(qaLimits.maxImportBytes / (1024 * 1024))));

/** The CSV file of a multipart `file` field as text: a .csv of at most qaLimits.maxImportBytes, strict UTF-8. */
async function uploadedCsv(request: Request): Promise<string> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) throw invalid(M.importNotCsv, { file: M.importNotCsv });
  // The form's own overhead is small: a body past the cap plus 64 KB is refused before it is read.
  if (Number(request.headers.get("content-length") ?? "0") > qaLimits.maxImportBytes + 65_536) throw tooLarge();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw invalid(M.importNotCsv, { file: M.importNotCsv });
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw invalid(M.importNotCsv, { file: M.importNotCsv });
  // A .csv name, or a name with no extension sent as CSV; whatever it claims, the text is parsed strictly.
  const csvName = /\.csv$/i.test(file.name) || (!/\.[^./]+$/.test(file.name) && /^text\/csv\b/i.test(file.type));
  if (!csvName) throw invalid(M.importNotCsv, { file: M.importNotCsv });
  if (file.size > qaLimits.maxImportBytes) throw tooLarge();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw invalid(M.importNotCsv, { file: M.importNotCsv });
  }
}

/** An assistant's curated answers (Q&A pairs): list, add, read one, edit, delete, CSV import and export. */
export const qaRoutes = new Hono<AppEnv>()
  /** GET /:id/qa?q=&page= → { qa, total, page, totalPages } newest first */
  .get("/:id/qa", async (c) => {
    const query = qaListQuery.safeParse({ q: c.req.query("q"), page: c.req.query("page") });
    if (!query.success) throw toValidationError(query.error);
    return c.json(await listQa({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), ...query.data } }));
  })
  /** POST /:id/qa { question, answer, variants?, mode? } → 201 { qa }; 409 a question already answered */
  .post("/:id/qa", jsonBody(qaBody), async (c) => {
    const qa = await createQa({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), body: c.req.valid("json") } });
    return c.json({ qa }, 201);
  })
  /** GET /:id/qa/export → text/csv attachment (question,answer,variants) */
  .get("/:id/qa/export", async (c) => {
    const id = c.req.param("id");
    const csv = await exportQa({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: id } });
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="curated-answers-${id.replace(/[^\w-]/g, "_")}.csv"`,
      "x-content-type-options": "nosniff",
    });
  })
  /** POST /:id/qa/import (multipart `file`, CSV) → { imported, failed: [{ line, error }] } */
  .post("/:id/qa/import", async (c) => {
    const ctx = serviceContext(c);
    const input = { userId: c.var.user.id, assistantId: c.req.param("id") };
    // Ownership first: another owner's import is refused before its body is read.
    await requirePublicAssistant({ ctx, input });
    const text = await uploadedCsv(c.req.raw);
    return c.json(await importQa({ ctx, input: { ...input, text } }));
  })
  /** GET /:id/qa/:qaId → { qa } (after export: "export" is not a pair's id) */
  .get("/:id/qa/:qaId", async (c) => {
    const qa = await getQa({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), qaId: c.req.param("qaId") } });
    return c.json({ qa });
  })
  /** PATCH /:id/qa/:qaId { question?, answer?, variants?, mode? } → { qa } */
  .patch("/:id/qa/:qaId", jsonBody(qaPatchBody), async (c) => {
    const qa = await updateQa({
      ctx: serviceContext(c),
      input: { userId: c.var.user.id, assistantId: c.req.param("id"), qaId: c.req.param("qaId"), changes: c.req.valid("json") },
    });
    return c.json({ qa });
  })
  /** DELETE /:id/qa/:qaId → 204 */
  .delete("/:id/qa/:qaId", async (c) => {
    await deleteQa({ ctx: serviceContext(c), input: { userId: c.var.user.id, assistantId: c.req.param("id"), qaId: c.req.param("qaId") } });
    return c.body(null, 204);
  });
