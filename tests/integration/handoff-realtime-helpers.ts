import { expect } from "vitest";
import { parseWidgetSseEvent, visitorIdentity, widgetApiPaths, type WidgetServerEvent, type WidgetServerFrame } from "../../contract";
import { widgetCall } from "./widget-helpers";

type DataOf = { [F in WidgetServerFrame as F["event"]]: F["data"] };

/**
 * A test's end of a visitor's event stream (GET /api/widget/sessions/{id}/events): events parsed
 * with the contract as they come (one that does not parse is kept in `invalid`), heartbeats
 * (comment lines) counted, and when the stream ended.
 */
export class VisitorEvents {
  readonly frames: WidgetServerFrame[] = [];
  readonly invalid: string[] = [];
  readonly comments: string[] = [];
  endedAt: number | null = null;
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];
  private readonly reader: ReadableStreamDefaultReader<string>;

  constructor(readonly res: Response) {
    expect(res.status, `event stream refused: ${res.status}`).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    this.reader = this.res.body!.pipeThrough(new TextDecoderStream()).getReader();
    this.ended = this.read(this.reader);
  }

  private async read(reader: ReadableStreamDefaultReader<string>) {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // cancelled by the test
    }
    this.endedAt = Date.now();
    this.wake();
  }

  private take(block: string) {
    const lines = block.split("\n");
    if (lines.every((l) => l.startsWith(":"))) {
      this.comments.push(block);
      return;
    }
    const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "";
    const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
    const frame = parseWidgetSseEvent(event, data);
    if (frame) this.frames.push(frame);
    else this.invalid.push(block);
    this.wake();
  }

  private wake() {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The first frame of `event` that matches, waiting at most `timeoutMs` (fails when the stream ends first). */
  async next<E extends WidgetServerEvent>(event: E, test: (data: DataOf[E]) => boolean = () => true, timeoutMs = 8000): Promise<DataOf[E]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find((f) => f.event === event && test(f.data as DataOf[E]));
      if (found) return found.data as DataOf[E];
      if (this.endedAt !== null || Date.now() > deadline) throw new Error(`no ${event} event; got ${JSON.stringify(this.frames.map((f) => f.event))}`);
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), new Promise((r) => setTimeout(r, 50))]);
    }
  }

  /** Waits for the end of the stream, failing after `timeoutMs`. */
  async waitEnded(timeoutMs = 8000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.ended,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`event stream still open after ${timeoutMs} ms`)), timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  /** The client hangs up (the body is locked by the reader: cancelled through it). */
  cancel() {
    void this.reader.cancel().catch(() => {});
  }
}

/** GET …/events (raw response): the key, an Origin and a visitor's token when given. */
export function eventsRaw(sessionId: string, key: string | undefined, init: { origin?: string; ip?: string; visitorToken?: string } = {}) {
  return widgetCall(widgetApiPaths.events(sessionId), {
    key,
    origin: init.origin,
    ip: init.ip,
    headers: init.visitorToken ? { [visitorIdentity.tokenHeader]: init.visitorToken } : {},
  });
}

export async function openVisitorEvents(sessionId: string, key: string, init: { origin?: string; ip?: string; visitorToken?: string } = {}) {
  return new VisitorEvents(await eventsRaw(sessionId, key, init));
}
