import { publicAssistantServerMessages, widget } from "../../contract";
import type { Env } from "../env";
import { AppError } from "../http/errors";

/** The stub of an assistant's AssistantHub, by assistant id: the one way to reach one. */
export function getAssistantHub(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string) {
  return env.ASSISTANT_HUB.get(env.ASSISTANT_HUB.idFromName(assistantId));
}

/**
 * The hub's stub for a request path (widget routes, owner services, /v1 uses its own body): a
 * call that fails (the object reset, overloaded, or threw) becomes a retryable 503 AppError with
 * Retry-After and `message` (a contract sentence), never a generic 500. Calls return plain
 * promises (no pipelining through the result). Callers that handle a failure themselves
 * (WidgetRoom, the owner-write calls of revoke-widget-sockets.ts, the list's degraded cards)
 * keep `getAssistantHub`.
 */
export function reachAssistantHub(
  env: Pick<Env, "ASSISTANT_HUB">,
  assistantId: string,
  message: string = publicAssistantServerMessages.assistantBusy,
): ReturnType<typeof getAssistantHub> {
  const stub = getAssistantHub(env, assistantId);
  return new Proxy(stub, {
    get(target, prop) {
      // An RPC method is used as is (binding it would be an RPC call of its own).
      const member = Reflect.get(target, prop) as unknown;
      if (typeof prop !== "string" || typeof member !== "function" || prop === "fetch") return member;
      return (...args: unknown[]) =>
        Promise.resolve((member as (...a: unknown[]) => unknown)(...args)).catch((error: unknown) => {
          throw assistantHubUnavailable(assistantId, prop, error, message);
        });
    },
  });
}

/** The 503 for a failed hub call (logged with what failed; the message never carries it). */
export function assistantHubUnavailable(assistantId: string, method: string, error: unknown, message: string): AppError {
  console.error(JSON.stringify({ event: "assistant-hub-call-failed", assistantId, method, error: String(error) }));
  return new AppError("SERVICE_UNAVAILABLE", message, { retryAfter: widget.assistantRetryAfterSeconds });
}
