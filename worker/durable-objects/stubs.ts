import { publicAssistantServerMessages, userRoomId, widget } from "../../contract";
import type { AssistantHubRpc, Env } from "../env";
import { AppError } from "../http/errors";

/**
 * The one place a Durable Object stub is made: every object is named (`idFromName`) by the
 * entity it belongs to, so each helper takes that entity's id.
 */

/**
 * An assistant's own object (AssistantHub), by assistant id: the stub itself. A caller that uses
 * a facet through it disposes the facet's stub with `callFacet`; request paths use
 * `reachAssistantHub`, which does that for every facet call.
 */
export function getAssistantHub(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string) {
  return env.ASSISTANT_HUB.get(env.ASSISTANT_HUB.idFromName(assistantId));
}

/**
 * One call of a facet (`callFacet(hub.sockets(), (s) => s.register(id))`): pipelined, and the
 * facet's stub is disposed once the call settles, rather than left to the garbage collector,
 * which holds the object's side until it runs.
 */
export async function callFacet<F extends object, R>(facet: F, use: (facet: F) => R): Promise<Awaited<R>> {
  try {
    return await use(facet);
  } finally {
    (facet as Partial<Disposable>)[Symbol.dispose]?.();
  }
}

/** A chat room, by room id (`user-<id>` or a guest id). */
export function getChatRoom(env: Pick<Env, "CHAT_ROOM">, roomId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(roomId));
}

/** A signed-in user's room: it owns their chats, messages, projects, settings and all-assistants budget. */
export const getUserRoom = (env: Pick<Env, "CHAT_ROOM">, userId: string) => getChatRoom(env, userRoomId(userId));

/** A visitor session's room (its sockets), by visitor session id. */
export function getWidgetRoom(env: Pick<Env, "WIDGET_ROOM">, sessionId: string) {
  return env.WIDGET_ROOM.get(env.WIDGET_ROOM.idFromName(sessionId));
}

/** The counter object of one throttle and key (`scope:key`): longer-window throttles (services/rate-limit.ts). */
export function getRateLimiter(env: Pick<Env, "RATE_LIMITER">, name: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
}

/** The facets of the assistant's object: `hub.knowledge().files()` is one pipelined call. */
const facets: ReadonlySet<string> = new Set(["knowledge", "webSources", "visitors", "history", "identity", "insights", "budgets", "sockets", "qa", "handoff", "leads", "webhooks", "privacy"]);

type HubStub = DurableObjectStub<AssistantHubRpc>;
/** How a call of the hub or of one of its facets is run: `call` makes the RPC. */
type CallRunner = (method: string, call: () => unknown) => Promise<unknown>;
type FacetStub = Record<string, (...a: unknown[]) => unknown>;

/** The hub's stub with every call, facets' calls included, run by `run`, and each facet's stub disposed after its call. */
function withFacets(stub: HubStub, run: CallRunner): HubStub {
  return new Proxy(stub, {
    get(on, prop) {
      const member = Reflect.get(on, prop) as unknown;
      if (typeof member !== "function") return member;
      // `fetch` is the stub's own method (bound to it); an RPC method is called as is: reading
      // `.bind` of one would be an RPC property of its own.
      if (prop === "fetch") return (member as (...a: unknown[]) => unknown).bind(on);
      if (typeof prop !== "string") return member;
      const call = member as (...a: unknown[]) => unknown;
      if (facets.has(prop)) return () => facetCalls(() => call() as FacetStub, prop, run);
      return (...args: unknown[]) => run(prop, () => call(...args));
    },
  });
}

/** A facet whose every method call asks the hub for the facet (pipelined), calls it, and disposes the facet's stub. */
function facetCalls(open: () => FacetStub, facet: string, run: CallRunner) {
  return new Proxy({} as Record<string, unknown>, {
    get(_on, prop) {
      if (typeof prop !== "string" || prop === "then") return undefined;
      return (...args: unknown[]) => run(`${facet}.${prop}`, () => callFacet(open(), (stub) => stub[prop]!(...args)));
    },
  });
}

/**
 * The assistant's object for a request path (widget routes, owner services): a call that fails
 * (the object reset, overloaded, or threw), facets' calls included, becomes a retryable 503
 * AppError with Retry-After and `message` (a contract sentence), never a generic 500. Callers
 * that handle a failure themselves (WidgetRoom, the owner-write calls of revoke-widget-sockets.ts,
 * the list's degraded cards) keep `getAssistantHub`.
 */
export function reachAssistantHub(
  env: Pick<Env, "ASSISTANT_HUB">,
  assistantId: string,
  message: string = publicAssistantServerMessages.assistantBusy,
): ReturnType<typeof getAssistantHub> {
  // `new Promise`: a call that throws at once (not only one that rejects) is a 503 too.
  const run: CallRunner = (method, call) =>
    new Promise((resolve) => resolve(call())).catch((error: unknown) => {
      throw assistantHubUnavailable(assistantId, method, error, message);
    });
  return withFacets(env.ASSISTANT_HUB.get(env.ASSISTANT_HUB.idFromName(assistantId)), run);
}

/** The 503 for a failed call of the assistant's object (logged with what failed; the message never carries it). */
export function assistantHubUnavailable(assistantId: string, method: string, error: unknown, message: string): AppError {
  console.error(JSON.stringify({ event: "assistant-hub-call-failed", assistantId, method, error: String(error) }));
  return new AppError("SERVICE_UNAVAILABLE", message, { retryAfter: widget.assistantRetryAfterSeconds });
}
