import { qaBody, qaLimits, qaMessages as M, type QaImportResponse, type QaPair, type qaListQuery, type qaPatchBody } from "../../../contract";
import type { z } from "zod";
import { isGone, type Gone } from "../../assistant/gone";
import type { QaDraft, QaWriteResult } from "../../assistant/qa-store";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { Env } from "../../env";
import { AppError, invalid, notFound } from "../../http/errors";
import { embeddingProviderFromEnv } from "../../knowledge";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { isQaHeader, readCsv, writeQaCsv } from "./qa-csv";

/**
 * An assistant's curated answers (GET/POST …/qa, GET/PATCH/DELETE …/qa/{qaId}, import, export). Ownership is
 * checked in D1 (another owner's assistant is a 404); the pairs live in the assistant's own object
 * (assistant/qa-store.ts, facet `hub.qa()`), matched in its turns (assistant/hub-qa.ts). With an
 * embedder configured each phrasing's vector is stored with it (best effort: a failed embedding
 * leaves the pair matched lexically).
 */

type Owner = { userId: string; assistantId: string };

async function qaOf(ctx: ServiceContext, input: Owner) {
  const assistant = await requirePublicAssistant({ ctx, input });
  return reachAssistantHub(ctx.env, assistant.id).qa();
}

/** The facet's answer, a deleted assistant's `gone` as a 404. */
function present<T>(answer: T): Exclude<T, Gone> {
  if (isGone(answer)) throw notFound();
  return answer as Exclude<T, Gone>;
}

/** A refused write as its status: 409 naming the pair that answers the question already, 400 past the cap, 404 unknown pair. */
function written(result: QaWriteResult): QaPair {
  if (result.ok) return result.qa;
  if (result.reason === "duplicate") throw new AppError("CONFLICT", M.duplicateQuestion(result.existing));
  if (result.reason === "too-many") throw invalid(M.tooManyPairs(qaLimits.maxPairs));
  throw new AppError("NOT_FOUND", M.notFound);
}

/** One vector per phrasing of each draft (question first), or nulls: no embedder, or the call failed (logged). */
async function embedPhrasings(env: Env, assistantId: string, phrasings: string[][]): Promise<(number[] | null)[][]> {
  const none = phrasings.map((list) => list.map(() => null));
  const embedder = embeddingProviderFromEnv(env);
  if (!embedder) return none;
  try {
    const flat = phrasings.flat();
    const vectors: Float32Array[] = [];
    for (let at = 0; at < flat.length; at += 256) vectors.push(...(await embedder.embed(flat.slice(at, at + 256))));
    let next = 0;
    return phrasings.map((list) => list.map(() => (vectors[next] ? Array.from(vectors[next++]!) : (next++, null))));
  } catch (error) {
    console.error(JSON.stringify({ event: "qa-embed-failed", assistantId, error: String(error) }));
    return none;
  }
}

export async function listQa({ ctx, input }: { ctx: ServiceContext; input: Owner & z.output<typeof qaListQuery> }) {
  return present(await (await qaOf(ctx, input)).list({ q: input.q, page: input.page }));
}

/** One pair; an unknown id (or another assistant's) is a 404. */
export async function getQa({ ctx, input }: { ctx: ServiceContext; input: Owner & { qaId: string } }): Promise<QaPair> {
  const pair = present(await (await qaOf(ctx, input)).get(input.qaId));
  if (!pair) throw new AppError("NOT_FOUND", M.notFound);
  return pair;
}

export async function createQa({ ctx, input }: { ctx: ServiceContext; input: Owner & { body: z.output<typeof qaBody> } }): Promise<QaPair> {
  const qa = await qaOf(ctx, input);
  const { body } = input;
  const [vectors] = await embedPhrasings(ctx.env, input.assistantId, [[body.question, ...body.variants]]);
  return written(present(await qa.create({ ...body, vectors }, Date.now())));
}

export async function updateQa({ ctx, input }: { ctx: ServiceContext; input: Owner & { qaId: string; changes: z.output<typeof qaPatchBody> } }): Promise<QaPair> {
  const qa = await qaOf(ctx, input);
  const current = present(await qa.get(input.qaId));
  if (!current) throw new AppError("NOT_FOUND", M.notFound);
  const patch: Partial<QaDraft> = { ...input.changes };
  if (input.changes.question !== undefined || input.changes.variants !== undefined) {
    const phrasings = [input.changes.question ?? current.question, ...(input.changes.variants ?? current.variants)];
    [patch.vectors] = await embedPhrasings(ctx.env, input.assistantId, [phrasings]);
  }
  return written(present(await qa.update(input.qaId, patch, Date.now())));
}

export async function deleteQa({ ctx, input }: { ctx: ServiceContext; input: Owner & { qaId: string } }): Promise<void> {
  if (!present(await (await qaOf(ctx, input)).remove(input.qaId))) throw new AppError("NOT_FOUND", M.notFound);
}

/** The export: every pair as CSV (question,answer,variants), cells no spreadsheet runs. */
export async function exportQa({ ctx, input }: { ctx: ServiceContext; input: Owner }): Promise<string> {
  return writeQaCsv(present(await (await qaOf(ctx, input)).all()));
}

/**
 * The import: the file's text (the route capped its bytes) read as CSV, the header checked, each
 * row checked with the create body's schema (a bad row reported with its line and the field's
 * message), then the good rows added in order (a duplicate of an existing pair or of an earlier
 * row reported by its line, naming the pair).
 */
export async function importQa({ ctx, input }: { ctx: ServiceContext; input: Owner & { text: string } }): Promise<QaImportResponse> {
  const qa = await qaOf(ctx, input);
  const { records, more } = readCsv(input.text, qaLimits.maxImportRows + 1);
  if (more) throw invalid(M.importTooManyRows(qaLimits.maxImportRows), { file: M.importTooManyRows(qaLimits.maxImportRows) });
  const [header, ...rows] = records;
  if (!header || !("cells" in header) || !isQaHeader(header.cells)) throw invalid(M.importHeader, { file: M.importHeader });
  const failed: QaImportResponse["failed"] = [];
  const good: (z.output<typeof qaBody> & { line: number })[] = [];
  for (const row of rows) {
    if (!("cells" in row) || row.cells.length > qaLimits.csvColumns.length) {
      failed.push({ line: row.line, error: M.importRowMalformed });
      continue;
    }
    const [question, answer, variants = ""] = row.cells;
    const parsed = qaBody.safeParse({ question, answer, variants: variants.split(qaLimits.csvVariantSeparator) });
    if (parsed.success) good.push({ ...parsed.data, line: row.line });
    else failed.push({ line: row.line, error: parsed.error.issues[0]?.message ?? M.importRowMalformed });
  }
  const vectors = await embedPhrasings(ctx.env, input.assistantId, good.map((g) => [g.question, ...g.variants]));
  const result = present(await qa.importRows(good.map((g, i) => ({ ...g, vectors: vectors[i] })), Date.now()));
  for (const f of result.failed) failed.push({ line: f.line, error: f.reason === "duplicate" ? M.duplicateQuestion(f.existing ?? "") : M.tooManyPairs(qaLimits.maxPairs) });
  failed.sort((a, b) => a.line - b.line);
  return { imported: result.imported, failed };
}
