/**
 * A visitor's privacy calls (contract/schemas/privacy.ts): delete one conversation, delete every
 * conversation and lead of one visitor (a signed visitor's id, or an anonymous visitor's
 * conversation id), and export that visitor's data as JSON (read as a file, like the CSV exports).
 */
import { api as apiConfig, privacyUi, visitorDeletion, type VisitorDeletion } from "../../../contract";
import { apiClient, type ApiClient } from "./api";
import { downloadAttachment } from "./download";

const assistantPath = (assistantId: string, rest: string) => `/public-assistants/${encodeURIComponent(assistantId)}${rest}`;

export function createPrivacyApi(client: ApiClient, basePath: string = apiConfig.basePath, fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
  return {
    /** DELETE …/chats/{sessionId}: 204, again 204 (idempotent, so retried like a read). */
    deleteConversation: (assistantId: string, sessionId: string): Promise<void> =>
      client.delete(assistantPath(assistantId, `/chats/${encodeURIComponent(sessionId)}`)),
    /** DELETE …/visitors/{visitorId}: what was deleted, counted. */
    deleteVisitor: (assistantId: string, visitorId: string): Promise<VisitorDeletion> =>
      client.delete(assistantPath(assistantId, `/visitors/${encodeURIComponent(visitorId)}`), { schema: visitorDeletion }),
    /** GET …/visitors/{visitorId}/export: the JSON file and the name to save it under. */
    exportVisitor: (assistantId: string, visitorId: string): Promise<{ blob: Blob; fileName: string }> =>
      downloadAttachment(
        fetchImpl,
        `${basePath}${assistantPath(assistantId, `/visitors/${encodeURIComponent(visitorId)}/export`)}`,
        "application/json",
        privacyUi.conversation.exportFileName(visitorId),
      ),
  };
}

export type PrivacyApi = ReturnType<typeof createPrivacyApi>;
export const privacyApi: PrivacyApi = createPrivacyApi(apiClient);
