import { describe, expect, it } from "vitest";
import { defaultHandoffSettings } from "../../contract";
import { agentAuthor, conversationHandoff, handoffOf } from "./handoff-store";
import type { SessionHandoffRow } from "./visitor-store";

const row = (handoff: Partial<SessionHandoffRow>, visitor: { visitorSub?: string | null; visitorEmail?: string | null } = {}) => ({
  handoff: { ...handoffOf({}), ...handoff },
  visitorSub: visitor.visitorSub ?? null,
  visitorEmail: visitor.visitorEmail ?? null,
});

describe("agentAuthor: the person the visitor sees", () => {
  it("the display name and its initials; an https photo only", () => {
    expect(agentAuthor({ firstName: "Ada", lastName: "Lovelace", photoUrl: "https://example.com/a.png" })).toEqual({ name: "Ada Lovelace", initials: "AL", photoUrl: "https://example.com/a.png" });
    expect(agentAuthor({ firstName: "Ada", lastName: "", photoUrl: "javascript:alert(1)" })).toEqual({ name: "Ada", initials: "A" });
    expect(agentAuthor({ firstName: "élodie", lastName: "ba", photoUrl: "http://example.com/a.png" })).toEqual({ name: "élodie ba", initials: "ÉB" });
  });

  it("falls back to the address's name, never the address", () => {
    expect(agentAuthor({ firstName: "", lastName: " ", email: "grace@example.com" })).toEqual({ name: "grace", initials: "G" });
  });
});

describe("conversationHandoff: what the visitor and the owner see", () => {
  const settings = { ...defaultHandoffSettings, businessHours: "9–18", emailAfterMinutes: 5 };

  it("a request asks an anonymous visitor for an address after the owner's minutes, with the owner's texts", () => {
    expect(conversationHandoff(row({ state: "requested", since: 1000, requestedAt: 1000 }), settings)).toEqual({
      state: "requested",
      requestedAt: 1000,
      askEmailAt: 1000 + 5 * 60_000,
      businessHours: "9–18",
    });
  });

  it("never asks a signed visitor or one who left an address", () => {
    expect(conversationHandoff(row({ state: "requested", since: 1, requestedAt: 1 }, { visitorSub: "alice" }), settings).askEmailAt).toBeUndefined();
    expect(conversationHandoff(row({ state: "requested", since: 1, requestedAt: 1, contactEmail: "v@example.com" }), settings)).toMatchObject({ emailLeft: true });
  });

  it("taken carries the person; none carries nothing else", () => {
    const agent = { name: "Ada", initials: "A" };
    expect(conversationHandoff(row({ state: "taken", since: 5, takenAt: 5, agent }), settings)).toMatchObject({ state: "taken", takenAt: 5, agent });
    expect(conversationHandoff(row({ state: "none", since: 5, takenAt: 5, agent }), settings)).toEqual({ state: "none" });
  });
});
