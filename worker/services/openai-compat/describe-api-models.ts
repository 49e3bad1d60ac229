import { openAiCompat, type OpenAiModel } from "../../../contract";
import type { Gone } from "../../assistant/gone";
import type { ApiKeyCheck } from "../../durable-objects/assistant-hub";
import type { ServiceContext } from "../context";
import { touchSecretKey } from "../secret-keys/authorize-secret-key-call";
import { isRefusal, type ChatCompletionRefusal } from "./chat-completion-refusal";
import { identifyCaller } from "./secret-key-caller";
import { askSettled } from "./settled-on-hub";

/** The models a /v1 caller may name: one, the key's assistant. */
export interface ApiModels {
  outcome: "listed";
  models: OpenAiModel[];
}

/**
 * GET /v1/models: the caller's key checked exactly as a chat completion's is (this isolate's
 * directory, else one D1 read; then the assistant's object against its copy, nothing counted),
 * with the same refusals. Lists the one model the key answers as: the name chat completions
 * answers with (`openAiCompat.defaultModel`), created when the assistant was. Records the key's use.
 */
export async function describeApiModels({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { authorization: string | undefined; origin: string | undefined };
}): Promise<ApiModels | ChatCompletionRefusal> {
  const caller = await identifyCaller(ctx, input.authorization, input.origin);
  if (isRefusal(caller)) return caller;
  const check = await askSettled<ApiKeyCheck | Gone>(ctx, caller, "checkApiKey", async (hub) => await hub.checkApiKey({ keyHash: caller.keyHash, origin: caller.origin }));
  if (isRefusal(check)) return check;
  await touchSecretKey(ctx, caller.key.secretKey);
  const model: OpenAiModel = {
    id: openAiCompat.defaultModel,
    object: "model",
    created: Math.floor(check.assistant.createdAt / 1000),
    owned_by: openAiCompat.modelOwner,
  };
  return { outcome: "listed", models: [model] };
}
