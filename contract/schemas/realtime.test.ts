import { describe, expect, it } from "vitest";
import { chatLimits } from "../constants";
import { chatMessages } from "../messages";
import { clientFrames, isGuestRoomId, parseClientFrame, parseServerFrame, userRoomId } from "./realtime";

describe("parseClientFrame", () => {
  it("reads send-message, stop, join-{room} and leave-{room}", () => {
    const send = parseClientFrame(JSON.stringify(clientFrames.sendMessage({ content: "hi", clientMessageId: "c", isGuest: false, userId: "u" })));
    expect(send).toEqual({ ok: true, frame: { event: "send-message", data: { content: "hi", clientMessageId: "c", isGuest: false, userId: "u", files: [] } } });
    expect(parseClientFrame(JSON.stringify(clientFrames.stop("c1")))).toEqual({ ok: true, frame: { event: "stop", data: { chatId: "c1" } } });
    expect(parseClientFrame(JSON.stringify(clientFrames.join("abc-123")))).toEqual({ ok: true, frame: { event: "join", room: "abc-123" } });
    expect(parseClientFrame('{"event":"leave-abc"}')).toEqual({ ok: true, frame: { event: "leave", room: "abc" } });
  });

  it("refuses anything else with a message the user can read", () => {
    for (const raw of ["nope", "{}", '{"event":"dance"}', '{"event":"join-"}', null, 42]) {
      expect(parseClientFrame(raw)).toEqual({ ok: false, error: chatMessages.invalidFrame });
    }
    const empty = parseClientFrame(JSON.stringify(clientFrames.sendMessage({ content: "  ", clientMessageId: "c", isGuest: true })));
    expect(empty).toEqual({ ok: false, error: chatMessages.emptyMessage });
    const long = parseClientFrame(JSON.stringify(clientFrames.sendMessage({ content: "x".repeat(chatLimits.maxMessageChars + 1), clientMessageId: "c", isGuest: true })));
    expect(long).toEqual({ ok: false, error: chatMessages.messageTooLong(chatLimits.maxMessageChars) });
    const files = Array.from({ length: chatLimits.maxFiles + 1 }, (_, i) => ({ name: `f${i}` }));
    expect(parseClientFrame(JSON.stringify(clientFrames.sendMessage({ content: "x", files, clientMessageId: "c", isGuest: true })))).toEqual({
      ok: false,
      error: chatMessages.tooManyFiles(chatLimits.maxFiles),
    });
    // A message of attachments only is fine.
    expect(parseClientFrame(JSON.stringify(clientFrames.sendMessage({ content: "", files: [{ name: "a.pdf", text: "t" }], clientMessageId: "c", isGuest: true }))).ok).toBe(true);
  });
});

describe("parseServerFrame", () => {
  it("accepts the contract's frames and ignores anything else", () => {
    expect(parseServerFrame('{"event":"remaining-messages","data":{"remaining":3,"limit":20}}')).toEqual({
      event: "remaining-messages",
      data: { remaining: 3, limit: 20 },
    });
    expect(parseServerFrame('{"event":"message-delta","data":{"chatId":"c","messageId":"m","delta":"x","offset":0}}')?.event).toBe("message-delta");
    for (const raw of ["", "{", '{"event":"thinking","data":{}}', '{"event":"unknown","data":{}}', '{"event":"message-delta","data":{"chatId":"c","messageId":"m","delta":"x","offset":-1}}', undefined]) {
      expect(parseServerFrame(raw)).toBeNull();
    }
  });
});

describe("room ids", () => {
  it("names a user's room and recognises guest ids", () => {
    expect(userRoomId("42")).toBe("user-42");
    expect(isGuestRoomId("guest-1732240000000-k3j9x2m4p7q8r5t1")).toBe(true);
    // Issue 10: a guest id's random part needs at least 16 characters (it is the guest's credential).
    expect(isGuestRoomId("guest-1732240000000-k3j9x2")).toBe(false);
    expect(isGuestRoomId("guest-123-x")).toBe(false);
    expect(isGuestRoomId("user-42")).toBe(false);
  });
});
