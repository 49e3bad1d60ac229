/**
 * The chat's REST calls (chat history, projects, models, settings), one function per call, each
 * response parsed with the contract's schema. The messages themselves travel on the realtime
 * connection (src/realtime); these only read and edit what is saved.
 */
import {
  chatDetailResponse,
  chatListResponse,
  chatResponse,
  modelsResponse,
  projectListResponse,
  projectResponse,
  settingsResponse,
  type Chat,
  type ChatDetailResponse,
  type ChatListResponse,
  type CreateProjectBody,
  type ListChatsQuery,
  type ModelsResponse,
  type Project,
  type UpdateChatBody,
  type UpdateProjectBody,
  type UserSettings,
} from "../../../contract";
import { apiClient, type ApiClient } from "./api";

const id = (value: string) => encodeURIComponent(value);

/** `?search=&page=&limit=` without the empty parts. */
export function listQuery(query: Omit<ListChatsQuery, "projectId"> & { projectId?: string }): string {
  const params = new URLSearchParams();
  if (query.search?.trim()) params.set("search", query.search.trim());
  if (query.projectId) params.set("projectId", query.projectId);
  if (query.page !== undefined) params.set("page", String(query.page));
  if (query.limit !== undefined) params.set("limit", String(query.limit));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function createChatApi(client: ApiClient = apiClient) {
  return {
    listChats: (query: ListChatsQuery = {}, signal?: AbortSignal): Promise<ChatListResponse> =>
      client.get(`/chats${listQuery(query)}`, { schema: chatListResponse, signal }),
    getChat: (chatId: string, signal?: AbortSignal): Promise<ChatDetailResponse> =>
      client.get(`/chats/${id(chatId)}`, { schema: chatDetailResponse, signal }),
    updateChat: async (chatId: string, body: UpdateChatBody): Promise<Chat> =>
      (await client.patch(`/chats/${id(chatId)}`, body, { schema: chatResponse })).chat,
    deleteChat: (chatId: string): Promise<void> => client.delete(`/chats/${id(chatId)}`),

    listProjects: async (signal?: AbortSignal): Promise<Project[]> =>
      (await client.get("/projects", { schema: projectListResponse, signal })).projects,
    getProject: async (projectId: string, signal?: AbortSignal): Promise<Project> =>
      (await client.get(`/projects/${id(projectId)}`, { schema: projectResponse, signal })).project,
    createProject: async (body: CreateProjectBody): Promise<Project> =>
      (await client.post("/projects", body, { schema: projectResponse })).project,
    updateProject: async (projectId: string, body: UpdateProjectBody): Promise<Project> =>
      (await client.patch(`/projects/${id(projectId)}`, body, { schema: projectResponse })).project,
    deleteProject: (projectId: string): Promise<void> => client.delete(`/projects/${id(projectId)}`),
    listProjectChats: (projectId: string, query: Omit<ListChatsQuery, "projectId"> = {}, signal?: AbortSignal): Promise<ChatListResponse> =>
      client.get(`/projects/${id(projectId)}/chats${listQuery(query)}`, { schema: chatListResponse, signal }),

    listModels: (signal?: AbortSignal): Promise<ModelsResponse> => client.get("/models", { schema: modelsResponse, signal }),
    updateSettings: async (model: string | null): Promise<UserSettings> =>
      (await client.put("/settings", { model }, { schema: settingsResponse })).settings,
  };
}

export type ChatApi = ReturnType<typeof createChatApi>;
export const chatApi: ChatApi = createChatApi();
