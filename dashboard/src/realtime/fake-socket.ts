/** Test doubles of the chat's realtime connection (imported by its tests only). */
import { vi } from "vitest";
import type { ServerFrame } from "../../../contract";
import { createChatConnection, type ChatConnectionOptions } from "./connection";
import type { ConnectionStatus } from "./policy";

/** A WebSocket double the test drives: open(), receive(), drop(). */
export class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = 0;
  binaryType = "blob";
  sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  receive(data: string) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  drop(code = 1006, reason = "") {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason }));
  }
}

export const latest = () => FakeSocket.all.at(-1)!;
/** Lets partysocket's zero-delay first attempt (and any timers up to `ms`) run. */
export const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

/** A signed-in user's connection over FakeSocket, recording every frame and status it reports. */
export function connectForTest(over: Partial<ChatConnectionOptions> = {}) {
  const frames: ServerFrame[] = [];
  const statuses: ConnectionStatus[] = [];
  const connection = createChatConnection({
    host: "tala.test",
    protocol: "wss",
    roomId: "user-u1",
    token: "tala_abc",
    onEvent: (f) => frames.push(f),
    onStatus: (s) => statuses.push(s),
    WebSocket: FakeSocket,
    ...over,
  });
  return { connection, frames, statuses };
}
