import { publicAssistantServerMessages, widget } from "../../contract";
import type { Env } from "../env";
import { AppError } from "../http/errors";

/** The stub of an assistant's AssistantHub, by assistant id: the one way to reach one. */
export function getAssistantHub(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string) {
  return env.ASSISTANT_HUB.get(env.ASSISTANT_HUB.idFromName(assistantId));
}

/** The facets of the assistant's object (AssistantHub): `hub.knowledge().files()` is one pipelined call. */
const facets: ReadonlySet<string> = new Set(["knowledge", "webSources", "visitors", "history", "identity", "insights", "budgets", "sockets"]);

/**
 * The hub's stub for a request path (widget routes, owner services): a call that fails (the
 * object reset, overloaded, or threw), facets' calls included, becomes a retryable 503 AppError
 * with Retry-After and `message` (a contract sentence), never a generic 500. Callers that handle
 * a failure themselves (WidgetRoom, the owner-write calls of revoke-widget-sockets.ts, the list's
 * degraded cards) keep `getAssistantHub`.
 */
export function reachAssistantHub(
  env: Pick<Env, "ASSISTANT_HUB">,
  assistantId: string,
  message: string = publicAssistantServerMessages.assistantBusy,
): ReturnType<typeof getAssistantHub> {
  const calls = <T extends object>(target: T, facet: string | null): T =>
    new Proxy(target, {
      get(on, prop) {
        // An RPC method is used as is (binding it would be an RPC call of its own).
        const member = Reflect.get(on, prop) as unknown;
        if (typeof prop !== "string" || typeof member !== "function" || prop === "fetch") return member;
        const call = member as (...a: unknown[]) => unknown;
        if (facet === null && facets.has(prop)) return () => calls(call() as object, prop);
        const method = facet === null ? prop : `${facet}.${prop}`;
        return (...args: unknown[]) =>
          Promise.resolve(call(...args)).catch((error: unknown) => {
            throw assistantHubUnavailable(assistantId, method, error, message);
          });
      },
    });
  return calls(getAssistantHub(env, assistantId), null);
}

/** The 503 for a failed hub call (logged with what failed; the message never carries it). */
export function assistantHubUnavailable(assistantId: string, method: string, error: unknown, message: string): AppError {
  console.error(JSON.stringify({ event: "assistant-hub-call-failed", assistantId, method, error: String(error) }));
  return new AppError("SERVICE_UNAVAILABLE", message, { retryAfter: widget.assistantRetryAfterSeconds });
}
