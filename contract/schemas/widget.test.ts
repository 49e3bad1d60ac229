import { describe, expect, it } from "vitest";
import { widgetMessages } from "../messages";
import { createWidgetSessionBody, formatWidgetSseEvent, parseWidgetClientFrame, parseWidgetServerFrame, parseWidgetSseEvent, widgetClientFrames } from "./widget";

describe("widget frames", () => {
  it("parses send-message and stop, and refuses anything else with a safe message", () => {
    const send = parseWidgetClientFrame(JSON.stringify(widgetClientFrames.sendMessage({ content: "hi", clientMessageId: "c1" })));
    expect(send).toEqual({ ok: true, frame: { event: "send-message", data: { content: "hi", files: [], clientMessageId: "c1" } } });
    expect(parseWidgetClientFrame(JSON.stringify(widgetClientFrames.stop()))).toEqual({ ok: true, frame: { event: "stop", data: {} } });
    expect(parseWidgetClientFrame("{")).toEqual({ ok: false, error: widgetMessages.invalidFrame });
    expect(parseWidgetClientFrame(JSON.stringify({ event: "join-x", data: {} }))).toEqual({ ok: false, error: widgetMessages.invalidFrame });
    expect(parseWidgetClientFrame(JSON.stringify({ event: "send-message", data: { content: " ", clientMessageId: "c" } }))).toEqual({ ok: false, error: widgetMessages.emptyMessage });
  });

  it("round-trips a server frame through SSE and the socket", () => {
    const frame = { event: "remaining-messages" as const, data: { remaining: 3, limit: 10 } };
    const sse = formatWidgetSseEvent(frame);
    expect(sse).toBe('event: remaining-messages\ndata: {"remaining":3,"limit":10}\n\n');
    expect(parseWidgetSseEvent("remaining-messages", '{"remaining":3,"limit":10}')).toEqual(frame);
    expect(parseWidgetServerFrame(JSON.stringify(frame))).toEqual(frame);
    expect(parseWidgetServerFrame(JSON.stringify({ event: "remaining-messages", data: { remaining: -1, limit: 1 } }))).toBeNull();
  });
});

describe("widget session body", () => {
  it("cleans the referrer and locale the owner will read of control and bidirectional characters", () => {
    const body = createWidgetSessionBody.parse({ referrer: "https://shop.example/\u202egpj.exe\r\n", locale: "fr-FR\u0000" });
    expect(body).toMatchObject({ referrer: "https://shop.example/gpj.exe ", locale: "fr-FR" });
    expect(createWidgetSessionBody.parse({})).toMatchObject({ referrer: "", locale: "" });
    expect(createWidgetSessionBody.safeParse({ referrer: 42 }).success).toBe(false);
  });

  it("cleans an attached file's name, which the owner reads in the history", () => {
    const frame = parseWidgetClientFrame(
      JSON.stringify(widgetClientFrames.sendMessage({ content: "see file", clientMessageId: "c1", files: [{ name: "invoice\u202efdp.exe", text: "x" }] })),
    );
    expect(frame.ok && frame.frame.event === "send-message" && frame.frame.data.files.map((f) => f.name)).toEqual(["invoicefdp.exe"]);
    expect(parseWidgetClientFrame(JSON.stringify(widgetClientFrames.sendMessage({ content: "x", clientMessageId: "c2", files: [{ name: "\u202e\u0000", text: "" }] }))).ok).toBe(false);
  });
});
