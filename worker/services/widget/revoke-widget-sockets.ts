import type { WidgetSocketClose } from "../../../contract";
import type { Env } from "../../env";
import { getAssistantHub } from "../../widget/get-assistant-hub";

/**
 * Closes an assistant's open widget sockets through its AssistantHub after a change that
 * committed in D1 (key regenerated, assistant deleted or switched off: all of them; origins taken
 * off the allowlist: those the new `allowedOrigins` refuses). A hub failure must not fail the
 * owner's request that already committed, so it is logged, never thrown: the rooms still refuse
 * the next frame (WidgetRoom re-reads the assistant on every message).
 */
export async function revokeWidgetSockets({
  ctx,
  input,
}: {
  ctx: { env: Pick<Env, "ASSISTANT_HUB"> };
  input: { assistantId: string; close: WidgetSocketClose; allowedOrigins?: readonly string[] };
}): Promise<void> {
  try {
    await getAssistantHub(ctx.env, input.assistantId).revoke(input.close, input.allowedOrigins);
  } catch (error) {
    console.error(JSON.stringify({ event: "widget-socket-revocation-failed", assistantId: input.assistantId, error: String(error) }));
  }
}
