/**
 * An incremental Server-Sent Events parser (the WHATWG event-stream format) for a fetch body read
 * in chunks: lines end in CRLF, LF or CR (a CR at a chunk's end may be half of a CRLF), `data:`
 * lines join with "\n", comments (`:`) and `id`/`retry` are ignored, a blank line dispatches.
 */
export interface SseParser {
  push(chunk: string): void;
  /** The stream ended: a last event without its blank line is dropped, as the format says. */
  end(): void;
}

export function createSseParser(onEvent: (event: string, data: string) => void): SseParser {
  let buffer = "";
  let event = "";
  let data: string[] = [];

  const line = (text: string) => {
    if (text === "") {
      if (data.length) onEvent(event || "message", data.join("\n"));
      event = "";
      data = [];
      return;
    }
    if (text[0] === ":") return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value[0] === " ") value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };

  return {
    push(chunk) {
      // A CR last in the buffer may be half of a CRLF: it stays until the next chunk.
      const lines = (buffer + chunk).split(/\r\n|\r(?!$)|\n/);
      buffer = lines.pop()!;
      lines.forEach(line);
    },
    end() {
      if (buffer.endsWith("\r")) line(buffer.slice(0, -1));
      buffer = "";
      event = "";
      data = [];
    },
  };
}
