import { describe, expect, it } from "vitest";
import { SseParser } from "./sse";

describe("SseParser", () => {
  it("returns data payloads of complete events only", () => {
    const p = new SseParser();
    expect(p.push('data: {"a":1}\n\ndata: {"b"')).toEqual(['{"a":1}']);
    expect(p.push(":2}\n\n")).toEqual(['{"b":2}']);
  });

  it("handles CRLF, comments and multi-line data", () => {
    const p = new SseParser();
    expect(p.push(": keep-alive\r\nevent: x\r\ndata: one\r\ndata: two\r\n\r\n")).toEqual(["one\ntwo"]);
  });

  it("flushes a final event without a trailing blank line", () => {
    const p = new SseParser();
    expect(p.push("data: [DONE]")).toEqual([]);
    expect(p.flush()).toEqual(["[DONE]"]);
  });
});
