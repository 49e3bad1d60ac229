import { publicAssistantServerMessages, type WidgetSocketClose } from "../../../contract";
import type { Env } from "../../env";
import { AppError } from "../../http/errors";
import { getAssistantHub } from "../../durable-objects/stubs";

type HubCtx = { env: Pick<Env, "ASSISTANT_HUB"> };

/**
 * Before an owner's D1 write that changes what a widget caller may do (settings, key, deletion):
 * the assistant's object stops trusting its copy and re-reads D1 until this write's
 * `revokeWidgetSockets` (assistant/assistant-copy.ts). Returns the write's token for it. When the object cannot be told, the owner's request fails with
 * a retryable 503 before anything changed: a copy it could not mark could otherwise keep
 * accepting a revoked key.
 */
export async function assistantChanging({ ctx, input }: { ctx: HubCtx; input: { assistantId: string } }): Promise<string> {
  try {
    return await getAssistantHub(ctx.env, input.assistantId).configChanging();
  } catch (error) {
    console.error(JSON.stringify({ event: "assistant-hub-unreachable", assistantId: input.assistantId, error: String(error) }));
    throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.assistantUnreachable);
  }
}

/**
 * After the owner's D1 write committed: the assistant's object refreshes its copy from D1 and,
 * with `close`, closes its open widget sockets (key regenerated, assistant switched off: all of
 * them; origins taken off the allowlist: those the new `allowedOrigins` refuses). A failure must
 * not fail the owner's request that already committed, so it is logged, never thrown: the object
 * keeps re-reading D1 (this write's marker stays until its deadline), so every later frame is refused.
 */
export async function revokeWidgetSockets({
  ctx,
  input,
}: {
  ctx: HubCtx;
  input: { assistantId: string; token: string; close?: WidgetSocketClose; allowedOrigins?: readonly string[] };
}): Promise<void> {
  try {
    const hub = getAssistantHub(ctx.env, input.assistantId);
    await hub.configChanged({ token: input.token, ...(input.close ? { revoke: { close: input.close, allowedOrigins: input.allowedOrigins } } : {}) });
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-socket-revocation-failed", assistantId: input.assistantId, error: String(error) }));
  }
}

/**
 * Before an assistant's D1 rows are deleted: its object closes its sockets and erases its storage
 * (idempotent). When the object cannot be reached, the owner's request fails with a retryable 503
 * before D1 changes, so the retried DELETE still finds the assistant and erases it.
 */
export async function eraseAssistantStore({ ctx, input }: { ctx: HubCtx; input: { assistantId: string; close: WidgetSocketClose } }): Promise<void> {
  try {
    await getAssistantHub(ctx.env, input.assistantId).erase(input.close);
  } catch (error) {
    console.error(JSON.stringify({ event: "assistant-hub-erase-failed", assistantId: input.assistantId, error: String(error) }));
    throw new AppError("SERVICE_UNAVAILABLE", publicAssistantServerMessages.assistantUnreachable);
  }
}
