// widget-chunks/sse.{hash}.js: reads a reply streamed as Server-Sent Events, the transport's
// fallback when the socket cannot connect (most visitors never load it).
import { createSseParser } from "../core/sse";
import { register } from "./register";

export interface SseChunk {
  /** Reads `body` to its end, handing each event's name and parsed JSON data to `onEvent`. */
  readStream(body: NonNullable<Response["body"]>, onEvent: (event: string, data: unknown) => void): Promise<void>;
}

async function readStream(body: NonNullable<Response["body"]>, onEvent: (event: string, data: unknown) => void) {
  const parser = createSseParser((event, text) => {
    try {
      onEvent(event, JSON.parse(text));
    } catch {
      // not JSON: dropped
    }
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parser.push(r.value);
  parser.end();
}

register("sse", { readStream });
