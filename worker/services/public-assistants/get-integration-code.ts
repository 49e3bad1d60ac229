import type { ServiceContext } from "../context";
import { revealApiKey } from "./reveal-api-key";

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The script tag an owner pastes before `</body>`: the widget bundle of this Tala, with the full key. */
export function integrationSnippet(origin: string, apiKey: string): string {
  const host = attribute(origin);
  return `<script src="${host}/widget.js" data-assistant-key="${attribute(apiKey)}" data-host="${host}" async></script>`;
}

/** GET …/integration-code: the snippet for `origin` (the Tala the owner is using) and the full key. */
export async function getIntegrationCode({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; assistantId: string; origin: string };
}): Promise<{ integrationCode: string; apiKey: string }> {
  const apiKey = await revealApiKey({ ctx, input });
  return { integrationCode: integrationSnippet(input.origin, apiKey), apiKey };
}
