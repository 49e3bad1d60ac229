import { describe, expect, it } from "vitest";
import { auditEntrySchema, teamUi, type AuditEntry, type TeamMember } from "../../../../contract";
import { assignableRoles, auditSentence, canManageMember, transferTargets } from "./team-model";

const member = (userId: string, role: TeamMember["role"]): TeamMember => ({ userId, email: `${userId}@example.com`, name: userId, role, addedAt: 1 });
const entry = (over: Partial<AuditEntry>): AuditEntry =>
  auditEntrySchema.parse({
    id: "a1",
    at: 1,
    actor: { userId: "u1", email: "nadia@example.com", name: "Nadia" },
    action: "member.removed",
    assistant: null,
    target: "amina@example.com",
    details: {},
    ...over,
  });

describe("what the caller may do on the Team page", () => {
  it("gives roles by the caller's: the owner any member role, an admin agents and viewers, others none", () => {
    expect(assignableRoles("owner")).toEqual(["admin", "agent", "viewer"]);
    expect(assignableRoles("admin")).toEqual(["agent", "viewer"]);
    expect(assignableRoles("agent")).toEqual([]);
    expect(assignableRoles("viewer")).toEqual([]);
  });

  it("lets nobody manage the owner or themselves, admins only agents and viewers", () => {
    expect(canManageMember("owner", "me", member("o", "owner"))).toBe(false);
    expect(canManageMember("owner", "me", member("me", "admin"))).toBe(false);
    expect(canManageMember("owner", "me", member("a", "admin"))).toBe(true);
    expect(canManageMember("admin", "me", member("a", "admin"))).toBe(false);
    expect(canManageMember("admin", "me", member("g", "agent"))).toBe(true);
    expect(canManageMember("agent", "me", member("v", "viewer"))).toBe(false);
  });

  it("offers ownership to admins only", () => {
    expect(transferTargets([member("o", "owner"), member("a", "admin"), member("g", "agent")]).map((m) => m.userId)).toEqual(["a"]);
  });
});

describe("an audit entry in words", () => {
  it("names who did what to what", () => {
    expect(auditSentence(entry({}))).toBe("Nadia removed amina@example.com");
    expect(auditSentence(entry({ action: "member.invited", details: { role: "agent" } }))).toBe("Nadia invited amina@example.com as Agent");
    expect(auditSentence(entry({ action: "member.role_changed", details: { from: "agent", to: "viewer" } }))).toBe(
      "Nadia changed the role of amina@example.com from Agent to Viewer",
    );
    expect(auditSentence(entry({ action: "visitor.deleted", target: "visitor-7", details: { deletedConversations: 3 } }))).toBe(
      "Nadia deleted the data of visitor visitor-7 (3 conversations)",
    );
    // The server's retention details (update-public-assistant.ts): toDays, null for keep.
    const retention = { action: "assistant.retention_changed" as const, target: "conversation retention" };
    expect(auditSentence(entry({ ...retention, details: { fromDays: null, toDays: 30, fromLeads: false, toLeads: false } }))).toBe(
      "Nadia set conversation retention to keep conversations 30 days",
    );
    expect(auditSentence(entry({ ...retention, details: { fromDays: 30, toDays: null, fromLeads: false, toLeads: false } }))).toBe(
      "Nadia set conversation retention to keep conversations",
    );
    expect(auditSentence(entry({ action: "secret_key.revoked", target: "Server key (tala_sk_…a1b2)" }))).toBe("Nadia revoked the secret key Server key (tala_sk_…a1b2)");
  });

  it("says Tala when nobody did it (retention), and falls back to the e-mail for a person without a name", () => {
    expect(auditSentence(entry({ actor: null, action: "conversation.deleted", target: "s1" }))).toBe(`${teamUi.audit.system} deleted the conversation s1`);
    expect(auditSentence(entry({ actor: { userId: "u2", email: "x@example.com", name: "" }, action: "member.left", target: "x@example.com" }))).toBe(
      "x@example.com left the workspace",
    );
  });

  it("has words for every action the contract records", async () => {
    const { auditActions } = await import("../../../../contract");
    for (const action of auditActions) {
      const text = auditSentence(entry({ action, target: "T" }));
      expect(text.startsWith("Nadia ")).toBe(true);
      expect(teamUi.audit.actionNames[action]).toBeTruthy();
    }
  });
});
