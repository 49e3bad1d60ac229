import type { ModelsResponse } from "../../../contract";
import { getModelProvider } from "../../models";
import type { ServiceContext } from "../context";
import { getSettings } from "../settings/settings";

/** The configured provider's models and default, and the user's choice; offline: none. */
export async function listModels({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<ModelsResponse> {
  const provider = getModelProvider(ctx.env);
  const [models, settings] = await Promise.all([provider ? provider.listModels() : Promise.resolve([]), getSettings({ ctx, input })]);
  return {
    models,
    default: provider ? provider.defaultModel || models[0] || null : null,
    selected: settings.model,
    offline: provider === null,
  };
}
