/**
 * Teams at their edges: who gets the owner's e-mails and keeps the workspace's budget once
 * ownership moved and the former owner left or deleted their account, two transfers at once, a
 * full team watching the inbox, and a watch racing a member's removal.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiKeyResponse, budgetsResponse, leadMessages, teamLimits, teamResponse, userRoomId } from "../../contract";
import { callFacet, getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, defaultPassword, json, outbox, registerUser } from "./helpers";
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

describe("the inbox's watchers with a full team", () => {
  it("every person of a full workspace watching a conversation keeps their leases: none is dropped for lack of room", async () => {
    const owner = await registerUser();
    const assistant = await createAssistant(owner.token, { name: "Busy inbox" });
    const rooms = Array.from({ length: teamLimits.maxMembers }, (_, i) => userRoomId(`member-${i}`));
    const until = Date.now() + 60_000;
    for (const [i, room] of rooms.entries()) {
      expect(await callFacet(getAssistantHub(env, assistant._id).handoff(), (h) => h.watch({ room, sessionId: `conversation-${i}`, until: until + i }))).toBe(true);
    }
    const watching = await runInDurableObject(getAssistantHub(env, assistant._id), (_instance, state) =>
      state.storage.sql.exec("SELECT DISTINCT room FROM inbox_watchers WHERE session_id = ''").toArray().map((r) => String(r.room)),
    );
    expect(watching.sort()).toEqual([...rooms].sort());
  });
});

describe("a former owner's account deletion", () => {
  it("keeps the workspace's all-assistants budget the new owner relies on", async () => {
    const first = await registerUser();
    await createAssistant(first.token, { name: "Capped" });
    expect((await call("/api/budgets", { method: "PUT", token: first.token, json: { limit: 500, action: "pause" } })).status).toBe(200);
    const next = await joinAs(first, "admin");
    expect((await teamCall("/api/team/transfer", { token: first.token, json: { userId: next.user.id } })).status).toBe(200);
    expect((await call("/api/auth/me", { method: "DELETE", token: first.token, json: { password: defaultPassword } })).status).toBe(200);

    const res = await teamCall("/api/budgets", { token: next.token, workspace: first.user.id });
    expect(res.status, await res.clone().text()).toBe(200);
    const budgets = await json(res, budgetsResponse);
    expect(budgets.owner).toMatchObject({ limit: 500, action: "pause" });
  });
});

describe("two transfers at once", () => {
  it("the workspace ends with one owner and every other person still in it", async () => {
    const first = await registerUser();
    const [a, b] = [await joinAs(first, "admin"), await joinAs(first, "admin")];
    const transfer = (to: string) => teamCall("/api/team/transfer", { token: first.token, json: { userId: to } });
    const statuses = (await Promise.all([transfer(a.user.id), transfer(b.user.id)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 403]);
    const team = await json(await teamCall("/api/team", { token: first.token, workspace: first.user.id }), teamResponse);
    expect(team.members.filter((m) => m.role === "owner")).toHaveLength(1);
    expect(team.members.map((m) => m.userId).sort()).toEqual([first.user.id, a.user.id, b.user.id].sort());
  });
});

describe("a removal racing a watch", () => {
  it("a watch whose role was read before the member's leases were dropped adds no lease; one read after does", async () => {
    const owner = await registerUser();
    const assistant = await createAssistant(owner.token, { name: "Raced inbox" });
    const room = userRoomId("removed-member");
    const hub = () => getAssistantHub(env, assistant._id).handoff();
    const checkedBefore = Date.now();
    const watch = (checkedAt: number) => callFacet(hub(), (h) => h.watch({ room, until: Date.now() + 60_000, checkedAt }));
    expect(await watch(checkedBefore)).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    await callFacet(hub(), (h) => h.unwatch(room));
    const rooms = () =>
      runInDurableObject(getAssistantHub(env, assistant._id), (_i, state) => state.storage.sql.exec("SELECT room FROM inbox_watchers").toArray().map((r) => String(r.room)));
    // The watch that passed the guard before the removal arrives after it.
    expect(await watch(checkedBefore)).toBe(true);
    expect(await rooms()).toEqual([]);
    // Re-invited later: their role is read after the drop.
    await new Promise((r) => setTimeout(r, 5));
    expect(await watch(Date.now())).toBe(true);
    expect(await rooms()).toEqual([room]);
  });
});
