/**
 * Incremental Server-Sent Events parser: feed it decoded text as it arrives, get back the `data`
 * payloads of the events completed so far. Handles \n, \r\n and events split across chunks.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];

  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    for (;;) {
      const nl = this.buffer.search(/\r?\n/);
      if (nl < 0) break;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + (this.buffer[nl] === "\r" ? 2 : 1));
      if (line === "") {
        if (this.data.length) out.push(this.data.join("\n"));
        this.data = [];
      } else if (line.startsWith("data:")) {
        this.data.push(line.slice(line[5] === " " ? 6 : 5));
      }
      // Comments (":"), event:, id: and retry: lines carry nothing Tala needs.
    }
    return out;
  }

  /** The payload of a last event that the stream ended without a blank line after. */
  flush(): string[] {
    const rest = this.buffer.startsWith("data:") ? [...this.data, this.buffer.slice(this.buffer[5] === " " ? 6 : 5)] : this.data;
    this.buffer = "";
    this.data = [];
    return rest.length ? [rest.join("\n")] : [];
  }
}
