import { OpenAiCompatibleProvider } from "./openai-compatible";
import { WorkersAiProvider, type WorkersAiBinding } from "./workers-ai";
import type { ModelProvider } from "./types";

export * from "./types";

export interface ModelEnv {
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  AI?: WorkersAiBinding;
}

/**
 * The configured model: an OpenAI-compatible endpoint when LLM_BASE_URL is set, else Workers AI
 * when the AI binding exists, else null: offline mode, which callers must say plainly.
 */
export function getModelProvider(env: ModelEnv): ModelProvider | null {
  if (env.LLM_BASE_URL) return new OpenAiCompatibleProvider({ baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL });
  if (env.AI) return new WorkersAiProvider(env.AI, env.LLM_MODEL || undefined);
  return null;
}
