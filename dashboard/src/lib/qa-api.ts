/**
 * Curated answers (Q&A pairs) of one assistant, one function per call (contract/schemas/qa.ts),
 * each answer parsed with the contract's schema. The CSV import goes through XHR for its upload
 * progress, like the documents' upload; the export is read as a file, not JSON.
 */
import {
  api as apiConfig,
  qaImportResponse,
  qaLimits,
  qaListResponse,
  qaResponse,
  qaUi,
  type QaBody,
  type QaImportResponse,
  type QaListResponse,
  type QaPair,
  type QaPatchBody,
} from "../../../contract";
import { apiClient, type ApiClient } from "./api";
import { downloadAttachment } from "./download";
import { postFormWithProgress, type UploadOptions } from "./public-assistants-api";

/** The multipart field the import reads its CSV from. */
export const qaImportField = "file";

const qaPath = (assistantId: string, rest = "") => `/public-assistants/${encodeURIComponent(assistantId)}/qa${rest}`;
const pairPath = (assistantId: string, qaId: string) => qaPath(assistantId, `/${encodeURIComponent(qaId)}`);

export function createQaApi(client: ApiClient, basePath: string = apiConfig.basePath, fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
  return {
    /** GET …/qa?q=&page=: a page of pairs, newest first; `q` searches questions, variants and answers. */
    list: (assistantId: string, q: string, page: number, signal?: AbortSignal): Promise<QaListResponse> => {
      const query = new URLSearchParams({ page: String(page) });
      if (q.trim()) query.set("q", q.trim());
      return client.get(`${qaPath(assistantId)}?${query}`, { schema: qaListResponse, signal });
    },
    create: async (assistantId: string, body: QaBody): Promise<QaPair> => (await client.post(qaPath(assistantId), body, { schema: qaResponse })).qa,
    update: async (assistantId: string, qaId: string, body: QaPatchBody): Promise<QaPair> =>
      (await client.patch(pairPath(assistantId, qaId), body, { schema: qaResponse })).qa,
    remove: (assistantId: string, qaId: string) => client.delete(pairPath(assistantId, qaId)),
    /** POST …/qa/import: the good rows are kept, each bad one comes back with its line and reason. Not retried. */
    importCsv: (assistantId: string, file: File, options?: UploadOptions): Promise<QaImportResponse> => {
      const form = new FormData();
      form.append(qaImportField, file, file.name);
      return postFormWithProgress(`${basePath}${qaPath(assistantId, "/import")}`, form, qaImportResponse, options);
    },
    /** GET …/qa/export: the CSV as the server wrote it, and the name to save it under. */
    exportCsv: (assistantId: string): Promise<{ blob: Blob; fileName: string }> =>
      downloadAttachment(fetchImpl, `${basePath}${qaPath(assistantId, "/export")}`, "text/csv", qaUi.exportFileName(assistantId)),
  };
}

export type QaApi = ReturnType<typeof createQaApi>;

export const qaApi: QaApi = createQaApi(apiClient);

/**
 * Finds one pair by id (there is no single-pair route): first among the pairs matching `hint` (the
 * question it answers), then page by page through all of them. Null when it is gone.
 */
export async function findPair(api: Pick<QaApi, "list">, assistantId: string, qaId: string, hint: string, signal?: AbortSignal): Promise<QaPair | null> {
  const hinted = hint.trim() ? await api.list(assistantId, hint.slice(0, qaLimits.maxSearchChars), 1, signal) : null;
  const found = hinted?.qa.find((p) => p.id === qaId);
  if (found) return found;
  for (let page = 1; ; page++) {
    const list = await api.list(assistantId, "", page, signal);
    const pair = list.qa.find((p) => p.id === qaId);
    if (pair) return pair;
    if (page >= list.totalPages || list.qa.length === 0) return null;
  }
}
