import { describe, expect, it } from "vitest";
import { handoffLimits, type InboxFrameData } from "../../../../../contract";
import { inbox, message, row, session } from "./inbox-fixtures";
import { applyFrameToConversation, applyFrameToList, liveConversation, markRowRead, matchesFilter, plainPreview, rowTime, upsertMessage, visitorLabel } from "./inbox-model";

const frame = (over: Partial<InboxFrameData>): InboxFrameData => ({ assistantId: "pa1", sessionId: "s1", kind: "message", ...over });

describe("the inbox list under frames", () => {
  it("puts a new conversation at the top of page 1, and says the counts must be read again", () => {
    const data = inbox([row("s1", { lastMessageAt: 10 })]);
    const { data: next, stale } = applyFrameToList(data, frame({ sessionId: "s2", conversation: row("s2", { lastMessageAt: 20, unread: 1 }) }), "all", 1, null);
    expect(next.conversations.map((c) => c.sessionId)).toEqual(["s2", "s1"]);
    expect(next.total).toBe(2);
    expect(stale).toBe(true);
  });

  it("leaves another page as it is when the conversation is not on it", () => {
    const data = inbox([row("s1")], { page: 2, totalPages: 2 });
    const { data: next } = applyFrameToList(data, frame({ sessionId: "s9", conversation: row("s9", { lastMessageAt: 99 }) }), "all", 2, null);
    expect(next.conversations.map((c) => c.sessionId)).toEqual(["s1"]);
  });

  it("moves a known conversation up and keeps the counts from the change", () => {
    const data = inbox([row("s1", { lastMessageAt: 30 }), row("s2", { lastMessageAt: 20 })]);
    const update = applyFrameToList(
      data,
      frame({ sessionId: "s2", kind: "handoff", conversation: row("s2", { lastMessageAt: 40, unread: 2, live: true, handoff: { state: "requested", requestedAt: 40 } }) }),
      "all",
      1,
      null,
    );
    expect(update.stale).toBe(false);
    expect(update.data.conversations.map((c) => c.sessionId)).toEqual(["s2", "s1"]);
    expect(update.data.counts).toEqual({ needsPerson: 1, withPerson: 0, live: 1, unread: 2 });
  });

  it("drops a conversation that leaves the filter (taken over: no longer needs a person)", () => {
    const data = inbox([row("s1", { handoff: { state: "requested" } })]);
    const update = applyFrameToList(data, frame({ kind: "handoff", conversation: row("s1", { handoff: { state: "taken" } }) }), "needs-person", 1, null);
    expect(update.data.conversations).toEqual([]);
    expect(update.data.total).toBe(0);
    expect(update.data.counts).toMatchObject({ needsPerson: 0, withPerson: 1 });
  });

  it("keeps the open conversation read, and marks a row read", () => {
    const data = inbox([row("s1")]);
    const update = applyFrameToList(data, frame({ conversation: row("s1", { unread: 3 }) }), "all", 1, "s1");
    expect(update.data.conversations[0]!.unread).toBe(0);
    const read = markRowRead(inbox([row("s1", { unread: 2 }), row("s2", { unread: 1 })]), "s1");
    expect(read.conversations.map((c) => c.unread)).toEqual([0, 1]);
    expect(read.counts.unread).toBe(1);
  });

  it("ignores typing and streaming frames, which change no row", () => {
    const data = inbox([row("s1")]);
    expect(applyFrameToList(data, frame({ kind: "typing", typing: true }), "all", 1, null).data).toBe(data);
  });

  it("files conversations under the filters as the server does", () => {
    expect(matchesFilter(row("a", { handoff: { state: "requested" } }), "needs-person")).toBe(true);
    expect(matchesFilter(row("a", { handoff: { state: "taken" } }), "needs-person")).toBe(false);
    expect(matchesFilter(row("a", { handoff: { state: "taken" } }), "with-person")).toBe(true);
    expect(matchesFilter(row("a", { live: true }), "live")).toBe(true);
    expect(matchesFilter(row("a"), "live")).toBe(false);
  });

  it("names a signed visitor, else their language and page without its query", () => {
    expect(visitorLabel(row("a", { visitor: { id: "u1", name: "Ada" } }))).toBe("Ada");
    expect(visitorLabel(row("a", { visitor: { id: "u1", email: "a@x.io" } }))).toBe("a@x.io");
    expect(visitorLabel(row("a"))).toBe("en · shop.example/returns");
  });
});

describe("the open conversation under frames", () => {
  it("streams the watched reply (thinking, deltas by offset), then the saved reply replaces it", () => {
    let live = liveConversation(session("s1"));
    live = applyFrameToConversation(live, frame({ kind: "thinking" }), 0);
    expect(live.thinking).toBe(true);
    live = applyFrameToConversation(live, frame({ kind: "delta", delta: { messageId: "a1", offset: 0, text: "Sure, " } }), 0);
    live = applyFrameToConversation(live, frame({ kind: "delta", delta: { messageId: "a1", offset: 6, text: "a person will reply." } }), 0);
    expect(live.streaming).toEqual({ messageId: "a1", text: "Sure, a person will reply." });
    // A delta past the text (one missed) keeps what arrived.
    expect(applyFrameToConversation(live, frame({ kind: "delta", delta: { messageId: "a1", offset: 99, text: "x" } }), 0).streaming?.text).toBe("Sure, a person will reply.");
    live = applyFrameToConversation(live, frame({ kind: "message", message: message("a1", "assistant", "Sure, a person will reply.", 2_000) }), 0);
    expect(live.streaming).toBeNull();
    expect(live.thinking).toBe(false);
    expect(live.session.messages.map((m) => m.id)).toEqual(["m1", "a1"]);
  });

  it("shows the visitor typing until the indicator's time, and a visitor message ends it", () => {
    let live = applyFrameToConversation(liveConversation(session("s1")), frame({ kind: "typing", typing: true }), 1_000);
    expect(live.visitorTypingUntil).toBe(1_000 + handoffLimits.typingTtlMs);
    live = applyFrameToConversation(live, frame({ kind: "message", message: message("m2", "user", "Hello?", 3_000) }), 2_000);
    expect(live.visitorTypingUntil).toBeNull();
  });

  it("follows the handoff and the address the visitor left, and ignores another conversation's frames", () => {
    const live = liveConversation(session("s1"));
    const taken = applyFrameToConversation(
      live,
      frame({ kind: "handoff", conversation: row("s1", { handoff: { state: "taken", agent: { name: "Sam Lee", initials: "SL" } }, contactEmail: "v@x.io" }) }),
      0,
    );
    expect(taken.session.handoff?.state).toBe("taken");
    expect(taken.session.contactEmail).toBe("v@x.io");
    expect(applyFrameToConversation(live, frame({ sessionId: "s2", kind: "typing", typing: true }), 0)).toBe(live);
  });

  it("drops a message frame whose message does not match the contract", () => {
    const live = liveConversation(session("s1"));
    expect(applyFrameToConversation(live, frame({ message: { role: "robot" } }), 0).session.messages).toHaveLength(1);
  });

  it("upserts by id: a message sent here and then told by the socket appears once", () => {
    const agent = message("g1", "agent", "Hi, I am Sam.", 5_000, { author: { name: "Sam Lee", initials: "SL" } });
    const once = upsertMessage(upsertMessage(session("s1"), agent), agent);
    expect(once.messages.filter((m) => m.id === "g1")).toHaveLength(1);
    expect(once.messageCount).toBe(2);
  });
});

describe("a row's words", () => {
  it("shows the hour on the same day, else the day; a preview without Markdown marks", () => {
    const now = new Date(2026, 10, 27, 15, 0).getTime();
    expect(rowTime(new Date(2026, 10, 27, 9, 5).getTime(), now)).toBe("09:05");
    expect(rowTime(new Date(2026, 10, 26, 9, 5).getTime(), now)).toBe("Nov 26, 2026");
    expect(plainPreview("Hi! **groups of 8** are `fine`\n- 3 days")).toBe("Hi! groups of 8 are fine - 3 days");
  });
});
