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

describe("the regenerate frame", () => {
  it("reads { chatId, messageId } and the question's attachments, built by clientFrames.regenerate", () => {
    expect(parseClientFrame(JSON.stringify(clientFrames.regenerate({ chatId: "c1", messageId: "m1" })))).toEqual({
      ok: true,
      frame: { event: "regenerate", data: { chatId: "c1", messageId: "m1", files: [] } },
    });
    const withFiles = parseClientFrame(JSON.stringify(clientFrames.regenerate({ chatId: "c1", messageId: "m1", files: [{ name: "a.txt", text: "t" }], clientMessageId: "r1" })));
    expect(withFiles).toEqual({
      ok: true,
      frame: { event: "regenerate", data: { chatId: "c1", messageId: "m1", files: [{ name: "a.txt", text: "t" }], clientMessageId: "r1" } },
    });
  });

  it("refuses a frame without both ids, with ids too long, or with too many files", () => {
    for (const data of [{}, { chatId: "c1" }, { messageId: "m1" }, { chatId: "", messageId: "m1" }, { chatId: "c1", messageId: 7 }, { chatId: "c".repeat(101), messageId: "m1" }, null]) {
      expect(parseClientFrame(JSON.stringify({ event: "regenerate", data }))).toMatchObject({ ok: false });
    }
    const files = Array.from({ length: chatLimits.maxFiles + 1 }, (_, i) => ({ name: `f${i}` }));
    expect(parseClientFrame(JSON.stringify(clientFrames.regenerate({ chatId: "c", messageId: "m", files })))).toEqual({
      ok: false,
      error: chatMessages.tooManyFiles(chatLimits.maxFiles),
    });
  });
});

describe("parseServerFrame", () => {
  it("accepts the contract's frames and ignores anything else", () => {
    expect(parseServerFrame('{"event":"remaining-messages","data":{"remaining":3,"limit":20}}')).toEqual({
      event: "remaining-messages",
      data: { remaining: 3, limit: 20 },
    });
    expect(parseServerFrame('{"event":"message-delta","data":{"chatId":"c","messageId":"m","delta":"x","offset":0}}')?.event).toBe("message-delta");
    // A regenerated reply: its versions, the current one at versionIndex.
    const version = (data: string) => ({ content: { type: "text", data }, status: "complete", error: null, createdAt: 1 });
    const message = { id: "m", chatId: "c", role: "assistant", content: { type: "text", data: "b" }, files: [], timestamp: 1, status: "complete", versions: [version("a"), version("b")], versionIndex: 1 };
    const parsed = parseServerFrame(JSON.stringify({ event: "new-message", data: { message } }));
    expect(parsed?.event === "new-message" && parsed.data.message.versions?.map((v) => v.content.data)).toEqual(["a", "b"]);
    for (const raw of ["", "{", '{"event":"thinking","data":{}}', '{"event":"unknown","data":{}}', '{"event":"message-delta","data":{"chatId":"c","messageId":"m","delta":"x","offset":-1}}', undefined]) {
      expect(parseServerFrame(raw)).toBeNull();
    }
  });
});

describe("room ids", () => {
  it("names a user's room and recognises guest ids", () => {
    expect(userRoomId("42")).toBe("user-42");
    expect(isGuestRoomId("guest-1732240000000-k3j9x2m4p7q8r5t1")).toBe(true);
    // A guest id's random part needs at least 16 characters (it is the guest's credential).
    expect(isGuestRoomId("guest-1732240000000-k3j9x2")).toBe(false);
    expect(isGuestRoomId("guest-123-x")).toBe(false);
    expect(isGuestRoomId("user-42")).toBe(false);
  });
});
