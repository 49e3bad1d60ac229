import { describe, expect, it } from "vitest";
import { realtime, realtimeMessages, toast } from "../../../contract";
import { classifyProbe, messageErrorToast, reconnectDelays, socketOptions, statusToast } from "./policy";

describe("reconnect policy", () => {
  it("waits 1 s growing to 5 s over 5 attempts, with a 10 s connect timeout", () => {
    expect(reconnectDelays()).toEqual([1000, 1500, 2250, 3375, 5000]);
    expect(socketOptions).toMatchObject({ maxRetries: 5, connectionTimeout: realtime.connectTimeoutMs, maxEnqueuedMessages: 0 });
  });
});

describe("classifyProbe", () => {
  it("tells refused credentials, a wrong address, CORS and the network apart", () => {
    expect(classifyProbe({ status: 401 })).toBe("auth");
    expect(classifyProbe({ status: 403 })).toBe("auth");
    expect(classifyProbe({ status: 404 })).toBe("namespace");
    expect(classifyProbe({ status: 200, redirected: true })).toBe("namespace");
    expect(classifyProbe({ status: 400 })).toBe("network");
    expect(classifyProbe({ status: 503 })).toBe("network");
    expect(classifyProbe({ status: null, reachable: true })).toBe("cors");
    expect(classifyProbe({ status: null, reachable: false })).toBe("network");
  });
});

describe("statusToast", () => {
  it("maps statuses to the spec's realtime toasts", () => {
    expect(statusToast({ state: "open", reconnected: false })).toBeNull();
    expect(statusToast({ state: "open", reconnected: true })).toEqual({ description: realtimeMessages.reconnected, variant: "success", durationMs: toast.realtimeShortMs });
    expect(statusToast({ state: "failed", reason: "exhausted" })?.description).toBe(realtimeMessages.reconnectFailed);
    const auth = statusToast({ state: "failed", reason: "auth" });
    expect(auth).toMatchObject({ title: realtimeMessages.connectionErrorTitle, description: realtimeMessages.authenticationFailed, variant: "destructive" });
    expect(statusToast({ state: "reconnecting", attempt: 1, reason: "namespace", lost: false })?.description).toBe(realtimeMessages.invalidNamespace);
    expect(statusToast({ state: "reconnecting", attempt: 1, reason: "cors", lost: false })?.description).toBe(realtimeMessages.corsBlocked);
    expect(statusToast({ state: "reconnecting", attempt: 1, reason: "network", lost: false })?.description).toBe(realtimeMessages.connectionFailed);
    expect(statusToast({ state: "reconnecting", attempt: 1, reason: "network", lost: true })?.description).toBe(realtimeMessages.genericRealtimeError);
    // One toast per streak, not one per retry.
    expect(statusToast({ state: "reconnecting", attempt: 2, reason: "network", lost: false })).toBeNull();
    expect(statusToast({ state: "closed" })).toBeNull();
  });

  it("shows a message error with the server's text, else the fallback", () => {
    expect(messageErrorToast("Quota reached")).toMatchObject({ title: realtimeMessages.messageErrorTitle, description: "Quota reached" });
    expect(messageErrorToast("").description).toBe(realtimeMessages.messageErrorFallback);
  });
});
