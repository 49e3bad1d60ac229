import { exports } from "cloudflare:workers";
import OpenAI from "openai";
import { openAiModelsPath } from "../../contract";
import { call } from "./helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { widgetAssistant } from "./widget-helpers";

/** GET /api/v1/models (or one model's path below it) with `key` as the Bearer token. */
export const models = (key: string | null, id?: string, headers: Record<string, string> = {}) =>
  call(id === undefined ? openAiModelsPath : `${openAiModelsPath}/${encodeURIComponent(id)}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

/** A fresh assistant with a secret key (and its publishable key): /v1 takes secret keys only. */
export async function apiAssistant(...args: Parameters<typeof widgetAssistant>) {
  const { key: publishable, ...rest } = await widgetAssistant(...args);
  const { key } = await createSecretKey(rest.token, rest.assistant._id);
  return { ...rest, publishable, key };
}

/** A client's fetch that reaches the worker as deployed, offline. */
export const workerFetch = (url: string | URL | Request, init?: RequestInit) => exports.default.fetch(new Request(url, init));

export const API_BASE = "http://tala.test/api/v1";

/** The official client, pointed at the worker. */
export const openAiClient = (apiKey: string) => new OpenAI({ apiKey, baseURL: API_BASE, maxRetries: 0, fetch: workerFetch });
