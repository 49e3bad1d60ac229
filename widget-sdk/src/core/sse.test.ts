import { describe, expect, it } from "vitest";
import { createSseParser } from "./sse";

function parse(chunks: string[], end = true) {
  const events: [string, string][] = [];
  const parser = createSseParser((e, d) => events.push([e, d]));
  for (const c of chunks) parser.push(c);
  if (end) parser.end();
  return events;
}

describe("createSseParser", () => {
  it("reads named events with JSON data", () => {
    expect(parse(['event: thinking\ndata: {"a":1}\n\nevent: message-delta\ndata: {"delta":"hi"}\n\n'])).toEqual([
      ["thinking", '{"a":1}'],
      ["message-delta", '{"delta":"hi"}'],
    ]);
  });

  it("joins events split anywhere across chunks, CRLF included", () => {
    const text = 'event: new-message\r\ndata: {"x":"a b"}\r\n\r\nevent: remaining-messages\rdata: {"remaining":2}\r\r';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual([
        ["new-message", '{"x":"a b"}'],
        ["remaining-messages", '{"remaining":2}'],
      ]);
    }
    // one character at a time
    expect(parse([...text])).toHaveLength(2);
  });

  it("joins multi-line data, drops comments, ids and a field's single leading space", () => {
    expect(parse([": keep-alive\nid: 7\nretry: 100\ndata:one\ndata:  two\n\n"])).toEqual([["message", "one\n two"]]);
  });

  it("does not dispatch an event without data or an unterminated last event", () => {
    expect(parse(["event: thinking\n\n", "event: x\ndata: y"])).toEqual([]);
  });

  it("resets the event name after each dispatch", () => {
    expect(parse(["event: a\ndata: 1\n\ndata: 2\n\n"])).toEqual([
      ["a", "1"],
      ["message", "2"],
    ]);
  });
});
