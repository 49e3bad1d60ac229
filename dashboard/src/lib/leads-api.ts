/**
 * The owner's lead capture calls (contract/schemas/leads.ts), one function per call, each answer
 * parsed with the contract's schema: the lead form (read, save), the leads (a page, searched) and
 * their CSV export, read as a file with the auth header like the curated answers' export.
 */
import {
  api as apiConfig,
  leadFormResponse,
  leadsResponse,
  leadsUi,
  type LeadForm,
  type LeadFormInput,
  type LeadsResponse,
} from "../../../contract";
import { apiClient, authorizationHeader, type ApiClient } from "./api";
import { errorFromResponse } from "./public-assistants-api";
import { attachmentName } from "./qa-api";

const assistantPath = (assistantId: string, rest: string) => `/public-assistants/${encodeURIComponent(assistantId)}${rest}`;

/** GET …/leads?page=&q=: the page's address (no `q` when the search is empty). */
export const leadsPath = (assistantId: string, q: string, page: number) => {
  const query = new URLSearchParams({ page: String(page) });
  if (q.trim()) query.set("q", q.trim());
  return assistantPath(assistantId, `/leads?${query}`);
};

export function createLeadsApi(client: ApiClient, basePath: string = apiConfig.basePath, fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
  return {
    /** GET …/lead-form: the form as stored (the defaults, off, when never set). */
    form: async (assistantId: string, signal?: AbortSignal): Promise<LeadForm> =>
      (await client.get(assistantPath(assistantId, "/lead-form"), { schema: leadFormResponse, signal })).leadForm,
    /** PUT …/lead-form: the whole form; a 400 names the field (`fields.2.label`, `afterMessages`). */
    saveForm: async (assistantId: string, body: LeadFormInput): Promise<LeadForm> =>
      (await client.put(assistantPath(assistantId, "/lead-form"), body, { schema: leadFormResponse })).leadForm,
    /** GET …/leads: one page, newest first; `q` searches every value. */
    list: (assistantId: string, q: string, page: number, signal?: AbortSignal): Promise<LeadsResponse> =>
      client.get(leadsPath(assistantId, q, page), { schema: leadsResponse, signal }),
    /** GET …/leads/export: the CSV as the server wrote it (formula-safe cells), and the name to save it under. */
    exportCsv: async (assistantId: string): Promise<{ blob: Blob; fileName: string }> => {
      const headers: Record<string, string> = { accept: "text/csv" };
      const auth = authorizationHeader();
      if (auth) headers.authorization = auth;
      let res: Response;
      try {
        res = await fetchImpl(`${basePath}${assistantPath(assistantId, "/leads/export")}`, { headers, credentials: "include" });
      } catch {
        throw errorFromResponse(0, null);
      }
      if (!res.ok) throw errorFromResponse(res.status, await res.json().catch(() => null));
      const blob = await res.blob();
      return { blob, fileName: attachmentName(res.headers.get("content-disposition"), leadsUi.exportFileName(assistantId)) };
    },
  };
}

export type LeadsApi = ReturnType<typeof createLeadsApi>;
export const leadsApi: LeadsApi = createLeadsApi(apiClient);
