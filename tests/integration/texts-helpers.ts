import { expect } from "vitest";
import { knowledgeTextResponse, type KnowledgeTextResponse } from "../../contract";
import { call, json, type CallInit } from "./helpers";

const textsPath = (assistantId: string, fileId?: string) => `/api/public-assistants/${assistantId}/texts${fileId ? `/${fileId}` : ""}`;

/** POST …/texts with any body (the error tests send what the contract refuses). */
export const postText = (token: string | undefined, assistantId: string, body: unknown, init: CallInit = {}) =>
  call(textsPath(assistantId), { token, method: "POST", json: body, ...init });

/** PUT …/texts/{fileId} with any body. */
export const putText = (token: string | undefined, assistantId: string, fileId: string, body: unknown, init: CallInit = {}) =>
  call(textsPath(assistantId, fileId), { token, method: "PUT", json: body, ...init });

/** GET …/texts/{fileId}. */
export const getText = (token: string | undefined, assistantId: string, fileId: string) => call(textsPath(assistantId, fileId), { token });

/** Adds a text (201 expected) and returns the answer, parsed with the contract. */
export async function addText(token: string, assistantId: string, body: { title: string; content: string }): Promise<KnowledgeTextResponse> {
  const res = await postText(token, assistantId, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res, knowledgeTextResponse);
}

/** GET …/search?q= as the owner: the file names and excerpts found. */
export async function searchFor(token: string, assistantId: string, q: string): Promise<{ fileId: string; fileName: string; heading: string; excerpt: string }[]> {
  const res = await call(`/api/public-assistants/${assistantId}/search?${new URLSearchParams({ q })}`, { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { fileId: string; fileName: string; heading: string; excerpt: string }[] }).results;
}
