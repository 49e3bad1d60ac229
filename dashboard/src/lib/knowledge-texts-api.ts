/**
 * Text snippets of an assistant's knowledge (POST, GET and PUT …/texts), each answer parsed with
 * the contract's schema. A text is removed like a file (publicAssistantsApi.deleteFile).
 */
import { knowledgeTextResponse, type KnowledgeTextBody, type KnowledgeTextResponse } from "../../../contract";
import { apiClient, type ApiClient } from "./api";

const textsPath = (assistantId: string, fileId?: string) =>
  `/public-assistants/${encodeURIComponent(assistantId)}/texts${fileId ? `/${encodeURIComponent(fileId)}` : ""}`;

export function createKnowledgeTextsApi(client: ApiClient) {
  return {
    add: (assistantId: string, body: KnowledgeTextBody): Promise<KnowledgeTextResponse> => client.post(textsPath(assistantId), body, { schema: knowledgeTextResponse }),
    get: (assistantId: string, fileId: string, signal?: AbortSignal): Promise<KnowledgeTextResponse> =>
      client.get(textsPath(assistantId, fileId), { schema: knowledgeTextResponse, signal }),
    save: (assistantId: string, fileId: string, body: KnowledgeTextBody): Promise<KnowledgeTextResponse> =>
      client.put(textsPath(assistantId, fileId), body, { schema: knowledgeTextResponse }),
  };
}

export const knowledgeTextsApi = createKnowledgeTextsApi(apiClient);
