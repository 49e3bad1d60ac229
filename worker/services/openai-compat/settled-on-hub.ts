import { openAiCompatMessages as M } from "../../../contract";
import type { ApiAccessDenied } from "../../assistant/assistant-copy";
import { isGone, type Gone } from "../../assistant/gone";
import { assistantHubUnavailable, getAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { deniedBy, isRefusal, refuse, type ChatCompletionRefusal } from "./chat-completion-refusal";
import { recheck, type ApiCaller } from "./secret-key-caller";

type AssistantHubStub = ReturnType<typeof getAssistantHub>;

/** What the assistant's object answers a /v1 caller: its own answer, its refusal of the key (`denied`), or gone. */
export type HubAnswer = { ok: boolean } | { ok: false; denied: ApiAccessDenied } | Gone;

/** Whether the object's answer is final here: a refusal, or its own answer (not a key it refused, not gone). */
function settled<A extends HubAnswer | ChatCompletionRefusal>(answer: A): answer is Exclude<A, Gone | { denied: unknown }> {
  return isRefusal(answer) || (!isGone(answer) && !("denied" in answer));
}

/**
 * One call to the caller's assistant's object (`method`, for the log), its refusal of the key
 * settled: the key revoked, the assistant switched off or deleted, the Origin taken off the
 * allowlist: D1's exact refusal for a remembered key (it is forgotten), else the object's. An
 * object that does not answer is a retryable 503, as OpenAI's own are.
 */
export async function askSettled<A extends HubAnswer>(
  ctx: ServiceContext,
  caller: ApiCaller,
  method: string,
  ask: (hub: AssistantHubStub) => Promise<A>,
): Promise<Exclude<A, Gone | { denied: unknown }> | ChatCompletionRefusal> {
  const { assistantId } = caller.key;
  const hub = getAssistantHub(ctx.env, assistantId);
  const call = async (): Promise<A | ChatCompletionRefusal> => {
    try {
      return await ask(hub);
    } catch (error) {
      const { extra } = assistantHubUnavailable(assistantId, method, error, M.assistantUnreachable);
      return refuse(503, "api_error", M.assistantUnreachable, "service_unavailable", { "retry-after": String(extra.retryAfter) });
    }
  };
  const answer = await call();
  if (settled(answer)) return answer;
  const refused = await recheck(ctx, caller);
  if (refused) return refused;
  // D1 lets the call through and the object's copy does not: the copy missed a change made
  // without telling it (a worker version before it, during a deployment). It reads D1 again, once.
  try {
    await hub.configChanged();
  } catch (error) {
    console.error(JSON.stringify({ event: "assistant-copy-refresh-failed", assistantId, error: String(error) }));
  }
  const again = await call();
  if (settled(again)) return again;
  return deniedBy(isGone(again) ? "invalid-key" : (again as { denied: ApiAccessDenied }).denied);
}
