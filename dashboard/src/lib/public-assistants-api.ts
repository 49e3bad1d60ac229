/**
 * The Public Assistants API (spec section 7), one function per call, each response parsed with the
 * contract's schema. The file upload goes through XMLHttpRequest instead of the shared client,
 * because only XHR reports upload progress; the Playground reads a fetch stream (SSE, parsed as the
 * widget parses it). Both send the same Authorization header and cookies.
 */
import { z } from "zod";
import {
  apiKeyResponse,
  assistantAvatar,
  assistantAvatarResponse,
  onboardingResponse,
  type OnboardingEvent,
  type OnboardingRecord,
  chatHistory,
  chatHistoryExport,
  chatHistoryResponse,
  createdSecretKeyResponse,
  httpClientMessages,
  identitySecretCreated,
  identitySecretStatus,
  type IdentitySecretCreated,
  type IdentitySecretStatus,
  insightsResponse,
  integrationCodeResponse,
  knowledgeSearchResponse,
  knowledgeUpload,
  knowledgeUploadResponse,
  publicAssistantListResponse,
  publicAssistantResponse,
  secretKeyListResponse,
  visitorSessionResponse,
  api as apiConfig,
  type ChatHistoryResponse,
  type CreatedSecretKeyResponse,
  type InsightsResponse,
  type KnowledgeSearchResponse,
  type KnowledgeUploadResponse,
  type PublicAssistant,
  type PublicAssistantBody,
  type SecretKey,
  type AddWebSourceBody,
  type UpdateWebSourceBody,
  type WebPage,
  type WebSource,
  webPageListResponse,
  webSourceListResponse,
  webSourceResponse,
  type VisitorSession,
  insightsLimits,
} from "../../../contract";
import { ApiError, apiClient, credentialHeaders, errorFromBody, type ApiClient } from "./api";

const base = "/public-assistants";
const path = (id: string, rest = "") => `${base}/${encodeURIComponent(id)}${rest}`;

/** Progress of one upload request: bytes sent so far and the total (both 0 when unknown). */
export type UploadProgress = (loaded: number, total: number) => void;

export interface UploadOptions {
  onProgress?: UploadProgress;
  signal?: AbortSignal;
}

/** The filename the spec gives an exported history. */
export const exportFileName = (id: string) => `chat-history-${id}.json`;

/**
 * Reads an upload's answer: a 2xx body must match the contract (an empty body fails: spec section 5,
 * "an upload is treated as failed if the response has no data"); anything else becomes an ApiError
 * carrying the server's `error` when the envelope is there.
 */
export function readUploadResponse(status: number, text: string): KnowledgeUploadResponse {
  return readFormResponse(knowledgeUploadResponse, status, text);
}

/** Reads the answer of a multipart POST sent with XHR: a 2xx body parsed with `schema`, else the ApiError. */
export function readFormResponse<T>(schema: z.ZodType<T>, status: number, text: string): T {
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  if (status >= 200 && status < 300) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    throw new ApiError({ message: httpClientMessages.invalidResponse, status, code: "INVALID_RESPONSE" });
  }
  throw errorFromResponse(status, raw);
}

/** The ApiError of a failed answer read outside the shared client: the same as the shared client's (api.ts errorFromBody). */
export function errorFromResponse(status: number, raw: unknown, retryAfter?: number): ApiError {
  return errorFromBody(status, raw, retryAfter);
}

/**
 * POST …/files as multipart (repeated field `files`) with upload progress. Not retried: a retried
 * upload could add the same documents twice. No 10 s timeout either: the server extracts and indexes
 * the files before it answers, which takes longer than that for a large PDF.
 */
export function uploadWithProgress(url: string, files: readonly File[], options: UploadOptions = {}): Promise<KnowledgeUploadResponse> {
  const form = new FormData();
  for (const file of files) form.append(knowledgeUpload.fieldName, file, file.name);
  return postFormWithProgress(url, form, knowledgeUploadResponse, options);
}

/** POST a multipart form with XHR (upload progress, the stored credential, no retry, no timeout); the answer parsed with `schema`. */
export function postFormWithProgress<T>(url: string, form: FormData, schema: z.ZodType<T>, options: UploadOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    for (const [name, value] of Object.entries(credentialHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      try {
        resolve(readFormResponse(schema, xhr.status, xhr.responseText));
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => reject(new ApiError({ message: httpClientMessages.networkError, status: 0, code: "NETWORK_ERROR" }));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export function createPublicAssistantsApi(client: ApiClient, basePath: string = apiConfig.basePath) {
  return {
    list: async (signal?: AbortSignal): Promise<PublicAssistant[]> =>
      (await client.get(base, { schema: publicAssistantListResponse, signal })).assistants,
    get: async (id: string, signal?: AbortSignal): Promise<PublicAssistant> =>
      (await client.get(path(id), { schema: publicAssistantResponse, signal })).assistant,
    create: async (body: PublicAssistantBody): Promise<PublicAssistant> =>
      (await client.post(base, body, { schema: publicAssistantResponse })).assistant,
    update: async (id: string, body: PublicAssistantBody): Promise<PublicAssistant> =>
      (await client.put(path(id), body, { schema: publicAssistantResponse })).assistant,
    remove: (id: string) => client.delete(path(id)),
    /** PUT …/avatar (the image in the form field `file`): the server types it by its bytes. Not retried. */
    setAvatar: async (id: string, file: Blob): Promise<string> => {
      const form = new FormData();
      form.append(assistantAvatar.fieldName, file);
      return (await client.put(path(id, "/avatar"), form, { schema: assistantAvatarResponse, retry: false })).avatarUrl;
    },
    removeAvatar: async (id: string): Promise<string> => (await client.delete(path(id, "/avatar"), { schema: assistantAvatarResponse })).avatarUrl,
    /** POST …/onboarding: what only the dashboard sees (the snippet copied, the checklist hidden or shown). */
    onboarding: async (id: string, event: OnboardingEvent): Promise<OnboardingRecord> =>
      (await client.post(path(id, "/onboarding"), { event }, { schema: onboardingResponse })).onboarding,
    rawApiKey: async (id: string): Promise<string> => (await client.get(path(id, "/raw-api-key"), { schema: apiKeyResponse })).apiKey,
    regenerateKey: async (id: string): Promise<string> =>
      (await client.post(path(id, "/regenerate-key"), undefined, { schema: apiKeyResponse })).apiKey,
    integrationCode: (id: string) => client.get(path(id, "/integration-code"), { schema: integrationCodeResponse }),
    secretKeys: async (id: string, signal?: AbortSignal): Promise<SecretKey[]> =>
      (await client.get(path(id, "/secret-keys"), { schema: secretKeyListResponse, signal })).secretKeys,
    /** The answer carries the key's value: the only time it is ever shown. */
    createSecretKey: (id: string, name: string): Promise<CreatedSecretKeyResponse> =>
      client.post(path(id, "/secret-keys"), { name }, { schema: createdSecretKeyResponse }),
    /** The visitor identity secret: status (masked), create/rotate (the secret in this answer only), end the grace. */
    identitySecret: (id: string, signal?: AbortSignal): Promise<IdentitySecretStatus> => client.get(path(id, "/identity-secret"), { schema: identitySecretStatus, signal }),
    rotateIdentitySecret: (id: string, graceHours: number): Promise<IdentitySecretCreated> =>
      client.post(path(id, "/identity-secret"), { graceHours }, { schema: identitySecretCreated }),
    endIdentityGrace: (id: string): Promise<IdentitySecretStatus> => client.delete(path(id, "/identity-secret/previous"), { schema: identitySecretStatus }),
    revokeSecretKey: (id: string, keyId: string) => client.delete(path(id, `/secret-keys/${encodeURIComponent(keyId)}`)),
    uploadFiles: (id: string, files: readonly File[], options?: UploadOptions) =>
      uploadWithProgress(`${basePath}${path(id, "/files")}`, files, options),
    deleteFile: (id: string, fileId: string) => client.delete(path(id, `/files/${encodeURIComponent(fileId)}`)),
    search: (id: string, q: string, signal?: AbortSignal): Promise<KnowledgeSearchResponse> =>
      client.get(`${path(id, "/search")}?${new URLSearchParams({ q })}`, { schema: knowledgeSearchResponse, signal }),
    /** `user`: only that signed-in visitor's conversations (their id, the token's sub). */
    chats: (id: string, page: number, signal?: AbortSignal, user?: string): Promise<ChatHistoryResponse> =>
      client.get(`${path(id, "/chats")}?${new URLSearchParams({ page: String(page), limit: String(chatHistory.pageSize), ...(user ? { user } : {}) })}`, {
        schema: chatHistoryResponse,
        signal,
      }),
    /** GET …/chats/{sessionId}: one conversation, wherever it is in the pages. */
    chatSession: async (id: string, sessionId: string, signal?: AbortSignal): Promise<VisitorSession> =>
      (await client.get(path(id, `/chats/${encodeURIComponent(sessionId)}`), { schema: visitorSessionResponse, signal })).session,
    /**
     * GET …/chats/export: the whole history. The body is checked against the contract, and the
     * file saved is the server's JSON as sent (parsing would drop fields a newer server adds).
     */
    exportChats: async (id: string): Promise<Blob> => {
      const raw = await client.get(path(id, "/chats/export"), { schema: z.unknown() });
      if (!chatHistoryExport.safeParse(raw).success) {
        throw new ApiError({ message: httpClientMessages.invalidResponse, status: 200, code: "INVALID_RESPONSE" });
      }
      return new Blob([JSON.stringify(raw, null, 2)], { type: "application/json" });
    },
    /** Website sources: the crawl runs in the background; poll `sources` for progress. */
    sources: async (id: string, signal?: AbortSignal): Promise<WebSource[]> =>
      (await client.get(path(id, "/sources"), { schema: webSourceListResponse, signal })).sources,
    addSource: async (id: string, body: AddWebSourceBody): Promise<WebSource> =>
      (await client.post(path(id, "/sources"), body, { schema: webSourceResponse })).source,
    updateSource: async (id: string, sourceId: string, body: UpdateWebSourceBody): Promise<WebSource> =>
      (await client.patch(path(id, `/sources/${encodeURIComponent(sourceId)}`), body, { schema: webSourceResponse })).source,
    syncSource: async (id: string, sourceId: string): Promise<WebSource> =>
      (await client.post(path(id, `/sources/${encodeURIComponent(sourceId)}/sync`), undefined, { schema: webSourceResponse })).source,
    removeSource: (id: string, sourceId: string) => client.delete(path(id, `/sources/${encodeURIComponent(sourceId)}`)),
    sourcePages: async (id: string, sourceId: string, signal?: AbortSignal): Promise<WebPage[]> =>
      (await client.get(path(id, `/sources/${encodeURIComponent(sourceId)}/pages`), { schema: webPageListResponse, signal })).pages,
    /** GET …/insights?days=: the owner's insights over the last `days` UTC days (7, 30 or 90). */
    getInsights: (id: string, days: InsightsPeriod, signal?: AbortSignal): Promise<InsightsResponse> =>
      client.get(`${path(id, "/insights")}?${new URLSearchParams({ days: String(days) })}`, { schema: insightsResponse, signal }),
  };
}

/** A period the insights offer (contract `insightsLimits.periods`). */
export type InsightsPeriod = (typeof insightsLimits.periods)[number];

export type PublicAssistantsApi = ReturnType<typeof createPublicAssistantsApi>;

export const publicAssistantsApi: PublicAssistantsApi = createPublicAssistantsApi(apiClient);

/** The owner's insights of one assistant over the last `days` days, parsed with the contract. */
export const getInsights = (assistantId: string, days: InsightsPeriod, signal?: AbortSignal): Promise<InsightsResponse> =>
  publicAssistantsApi.getInsights(assistantId, days, signal);
