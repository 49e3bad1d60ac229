/**
 * Teams seen by a hostile tester: who keeps getting a workspace's data once ownership moved and
 * people left, and what a member can still reach after their access changed.
 */
import { describe, expect, it } from "vitest";
import { apiKeyResponse, leadMessages } from "../../contract";
import { call, json, outbox, registerUser } from "./helpers";
import { emailsTo } from "./handoff-helpers";
import { setLeadForm, submittedLead } from "./lead-helpers";
import { createAssistant } from "./public-assistants-helpers";
import { joinAs, teamCall } from "./team-helpers";
import { startSession } from "./widget-helpers";

describe("the workspace's owner e-mails after a transfer", () => {
  it("a lead's e-mail goes to the new owner, never to the former owner who was then removed", async () => {
    const first = await registerUser();
    const assistant = await createAssistant(first.token, { name: "Shop helper" });
    const { apiKey: key } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token: first.token }), apiKeyResponse);
    await setLeadForm(first.token, assistant._id, { enabled: true });
    const next = await joinAs(first, "admin");
    expect((await teamCall("/api/team/transfer", { token: first.token, workspace: first.user.id, json: { userId: next.user.id } })).status).toBe(200);
    expect((await teamCall(`/api/team/members/${first.user.id}`, { method: "DELETE", token: next.token, workspace: first.user.id })).status).toBe(204);

    const { sessionId } = await startSession(key);
    await submittedLead(key, sessionId, { email: "visitor@example.com" });
    const subject = leadMessages.ownerEmailSubject("Shop helper");
    const toNewOwner = (await emailsTo(next.email, 3)).filter((m) => m.subject === subject);
    expect(toNewOwner).toHaveLength(1);
    expect((await outbox(first.email)).filter((m) => m.subject === subject)).toHaveLength(0);
  });
});
