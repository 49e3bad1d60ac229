/**
 * The chat's frames over HTTP, for a network that blocks WebSockets (contract `chatFramesPath`):
 * one POST per client frame, answered with server-sent events whose `data` is a server frame.
 * Each frame is parsed with the contract, as on the socket; anything else is dropped.
 */
import { parseServerFrame, type ServerFrame } from "../../../contract";

export interface HttpFramesOptions {
  /** http(s)://host of the server. */
  origin: string;
  path: string;
  /** `Authorization` or the guest's id header. */
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** Ends every request and stream of a closed connection. */
  signal?: AbortSignal;
}

/** Why a POST did not stream: its HTTP status and the server's message (null: the network failed). */
export class FramePostError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

/**
 * POSTs one frame and hands each server frame of the answer to `onFrame` as it arrives. Resolves
 * when the server ends the stream; rejects with FramePostError when the request is refused or the
 * network fails before the stream starts, and with the read error when the stream is cut.
 */
export async function postFrame(options: HttpFramesOptions, frame: unknown, onFrame: (frame: ServerFrame) => void): Promise<void> {
  let res: Response;
  try {
    res = await options.fetch(`${options.origin}${options.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify(frame),
      credentials: "omit",
      signal: options.signal,
    });
  } catch {
    throw new FramePostError(null, "network");
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
    throw new FramePostError(res.status, typeof body?.error === "string" ? body.error : "");
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      for (const line of buffer.slice(0, end).split("\n")) {
        if (!line.startsWith("data:")) continue;
        const parsed = parseServerFrame(line.slice(5).trim());
        if (parsed) onFrame(parsed);
      }
      buffer = buffer.slice(end + 2);
    }
  }
}

/** Whether frames can go over HTTP from here: the endpoint answers the credential with 204. */
export async function framesAvailable(options: HttpFramesOptions): Promise<boolean> {
  try {
    const res = await options.fetch(`${options.origin}${options.path}`, { headers: options.headers, credentials: "omit", signal: options.signal });
    return res.status === 204;
  } catch {
    return false;
  }
}
