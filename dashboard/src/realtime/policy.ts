/**
 * The realtime connection policy of the spec (sections 4, 8, 9), as plain data and functions:
 * reconnect 1 s growing to 5 s, at most 5 attempts, connect timeout 10 s, and the toast each
 * connection state maps to. No sockets here, so all of it is unit-tested.
 */
import { realtime, realtimeMessages, toast } from "../../../contract";

/**
 * Growth per attempt: the smallest step of 0.1 at which the 5th retry reaches the maximum
 * (1 s · 1.5⁴ ≈ 5.06 s, capped at 5 s), so every wait is a whole number of milliseconds.
 */
export const reconnectGrowFactor =
  Math.ceil(10 * (realtime.reconnectDelayMaxMs / realtime.reconnectDelayMinMs) ** (1 / (realtime.reconnectAttempts - 1))) / 10;

/** partysocket (ReconnectingWebSocket) options that implement the policy. */
export const socketOptions = {
  minReconnectionDelay: realtime.reconnectDelayMinMs,
  maxReconnectionDelay: realtime.reconnectDelayMaxMs,
  reconnectionDelayGrowFactor: reconnectGrowFactor,
  maxRetries: realtime.reconnectAttempts,
  connectionTimeout: realtime.connectTimeoutMs,
  // A connection counts as up as soon as it opens, so the attempt count restarts at every open.
  minUptime: 0,
  // Never queue frames while closed: sending without a connection is refused ('No active connection').
  maxEnqueuedMessages: 0,
} as const;

/** The wait before each reconnection attempt, as partysocket computes it with socketOptions. */
export function reconnectDelays(): number[] {
  return Array.from({ length: realtime.reconnectAttempts }, (_, i) =>
    Math.min(realtime.reconnectDelayMaxMs, Math.round(realtime.reconnectDelayMinMs * reconnectGrowFactor ** i)),
  );
}

/** Why a connection failed, as far as the client can tell. */
export type FailureReason = "auth" | "namespace" | "cors" | "network" | "exhausted";

export type ConnectionStatus =
  | { state: "connecting" }
  /**
   * `reconnected`: this open follows a lost connection (the UI shows 'Reconnected'). `transport`
   * "http": WebSockets cannot get through, frames go over HTTP (connection.ts).
   */
  | { state: "open"; reconnected: boolean; transport?: "http" }
  /**
   * Not connected; `attempt` of realtime.reconnectAttempts is under way. `lost`: an open
   * connection dropped (else it never opened, and `reason` says why as far as known).
   */
  | { state: "reconnecting"; attempt: number; reason: FailureReason; lost: boolean }
  /** Given up: retries exhausted, or a refusal retrying cannot fix (authentication). */
  | { state: "failed"; reason: FailureReason }
  /** Closed by the client (close()). */
  | { state: "closed" };

/**
 * What a plain HTTP GET of the room's address says about a socket that failed to open (the
 * worker answers it like the upgrade: 401/403 refused credentials, 400 "WebSocket only" when all
 * is well). `null` status: the GET itself failed; `reachable` then says whether a no-cors request
 * got through, which makes it a CORS block rather than a network failure.
 */
export function classifyProbe(probe: { status: number | null; redirected?: boolean; reachable?: boolean }): FailureReason {
  if (probe.status === null) return probe.reachable ? "cors" : "network";
  if (probe.status === 401 || probe.status === 403) return "auth";
  if (probe.status === 404 || probe.redirected) return "namespace";
  return "network";
}

/** Refusals that another attempt cannot fix: stop reconnecting at once. */
export const isFinal = (reason: FailureReason) => reason === "auth" || reason === "exhausted";

export interface StatusToast {
  title?: string;
  description: string;
  variant: "destructive" | "success";
  durationMs: number;
}

const connectionError: Record<Exclude<FailureReason, "exhausted">, string> = {
  auth: realtimeMessages.authenticationFailed,
  namespace: realtimeMessages.invalidNamespace,
  cors: realtimeMessages.corsBlocked,
  network: realtimeMessages.connectionFailed,
};

/**
 * The toast the spec shows for a status (section 8, "Realtime"), or null for none. A reconnecting
 * status shows one toast, on its first attempt, not one per retry: 'An error occurred with the
 * realtime connection' when an open connection dropped, else 'Connection Error' and the cause.
 */
export function statusToast(status: ConnectionStatus): StatusToast | null {
  switch (status.state) {
    case "open":
      return status.reconnected ? { description: realtimeMessages.reconnected, variant: "success", durationMs: toast.realtimeShortMs } : null;
    case "reconnecting":
      if (status.attempt !== 1 || status.reason === "exhausted") return null;
      if (status.lost) return { description: realtimeMessages.genericRealtimeError, variant: "destructive", durationMs: toast.realtimeShortMs };
      return { title: realtimeMessages.connectionErrorTitle, description: connectionError[status.reason], variant: "destructive", durationMs: toast.realtimeLongMs };
    case "failed":
      return status.reason === "exhausted"
        ? { description: realtimeMessages.reconnectFailed, variant: "destructive", durationMs: toast.realtimeLongMs }
        : { title: realtimeMessages.connectionErrorTitle, description: connectionError[status.reason], variant: "destructive", durationMs: toast.realtimeLongMs };
    default:
      return null;
  }
}

/**
 * The toast for a message-error frame: 'Message Error' with the server's text, else the fallback
 * 'Failed to process message' (spec section 8).
 */
export function messageErrorToast(error: string | undefined): StatusToast {
  return {
    title: realtimeMessages.messageErrorTitle,
    description: error?.trim() ? error : realtimeMessages.messageErrorFallback,
    variant: "destructive",
    durationMs: toast.realtimeLongMs,
  };
}
