import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiKeyResponse, teamLimits, teamMessages, userRoomId, widgetClientFrames } from "../../contract";
import { openSocket } from "./chat-helpers";
import { call, expectError, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { joinAs, teamCall } from "./team-helpers";
import { openWidgetSocket, startSession } from "./widget-helpers";

const quietly = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An owner's assistant, an agent of the workspace with their dashboard's socket open and watching its inbox, and a visitor's socket. */
async function watchingAgent() {
  const owner = await registerUser();
  const assistant = await createAssistant(owner.token, { name: "Shop helper" });
  const { apiKey: key } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token: owner.token }), apiKeyResponse);
  const agent = await joinAs(owner, "agent");
  const socket = await openSocket(userRoomId(agent.user.id), { token: agent.token });
  expect((await call(`/api/public-assistants/${assistant._id}/inbox/watch`, { token: agent.token, json: {} })).status).toBe(204);
  const { sessionId } = await startSession(key);
  const visitor = await openWidgetSocket(sessionId, key);
  await visitor.next("remaining-messages");
  return { owner, assistant, agent, socket, visitor, sessionId };
}

describe("revocation: a member removed or lowered", () => {
  it("a removed agent watching the inbox gets a team-changed frame and no further inbox frame, within a second", async () => {
    const { owner, assistant, agent, socket, visitor } = await watchingAgent();
    visitor.ws.send(JSON.stringify(widgetClientFrames.typing(true)));
    await socket.next("inbox", (d) => d.kind === "typing");

    const started = Date.now();
    expect((await teamCall(`/api/team/members/${agent.user.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect(await socket.next("team-changed", undefined, teamLimits.revocationMs)).toEqual({ workspaceId: owner.user.id });
    expect(Date.now() - started).toBeLessThan(teamLimits.revocationMs);

    const before = socket.all("inbox").length;
    visitor.ws.send(JSON.stringify(widgetClientFrames.typing(false)));
    visitor.ws.send(JSON.stringify(widgetClientFrames.typing(true)));
    await quietly(600);
    expect(socket.all("inbox").length).toBe(before);
    // And their next request is a stranger's.
    await expectError(await call(`/api/public-assistants/${assistant._id}/inbox`, { token: agent.token }), 404, "Not found.");
    socket.close();
    visitor.close();
  });

  it("an agent lowered to viewer stops getting the inbox at once, and the next request is refused with 403", async () => {
    const { owner, assistant, agent, socket, visitor } = await watchingAgent();
    const res = await teamCall(`/api/team/members/${agent.user.id}`, { method: "PATCH", token: owner.token, json: { role: "viewer" } });
    expect(res.status).toBe(200);
    await socket.next("team-changed", undefined, teamLimits.revocationMs);
    visitor.ws.send(JSON.stringify(widgetClientFrames.typing(true)));
    await quietly(600);
    expect(socket.all("inbox")).toEqual([]);
    await expectError(
      await call(`/api/public-assistants/${assistant._id}/inbox/watch`, { token: agent.token, json: {} }),
      403,
      teamMessages.forbidden(teamMessages.permissionNames["inbox.reply"]!, teamMessages.roleNames.viewer!),
    );
    socket.close();
    visitor.close();
  });
});

/** Counts the D1 statements the isolate sends while `run` runs (a batch counts once: one round trip). */
async function countQueries(run: () => Promise<unknown>): Promise<{ count: number; sql: string[] }> {
  const db = env.DB as unknown as { prepare(sql: string): object; batch: (...a: unknown[]) => Promise<unknown> };
  const statement = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const dbProto = Object.getPrototypeOf(db) as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const seen: string[] = [];
  const originals = new Map<[Record<string, unknown>, string], unknown>();
  const wrap = (proto: Record<string, (...a: unknown[]) => Promise<unknown>>, name: string, label: (self: unknown) => string) => {
    const original = proto[name]!;
    originals.set([proto, name], original);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      seen.push(label(this));
      return original.apply(this, args);
    };
  };
  for (const name of ["first", "all", "run", "raw"]) wrap(statement, name, (self) => String((self as { statement?: string }).statement ?? name));
  wrap(dbProto, "batch", () => "batch");
  try {
    await run();
  } finally {
    for (const [[proto, name], original] of originals) proto[name] = original;
  }
  return { count: seen.length, sql: seen };
}

describe("the cost of membership", () => {
  it("an owner's request on an assistant resolves the role with the one query that loads it", async () => {
    const owner = await registerUser();
    const assistant = await createAssistant(owner.token, { name: "Counted" });
    await joinAs(owner, "agent");
    // GET …/lead-form reads nothing but the assistant: the token's check and the guard's query.
    const counted = await countQueries(async () => {
      expect((await call(`/api/public-assistants/${assistant._id}/lead-form`, { token: owner.token })).status).toBe(200);
    });
    const guard = counted.sql.filter((s) => /public_assistants/.test(s));
    expect(guard, JSON.stringify(counted.sql)).toHaveLength(1);
    expect(guard[0]).toMatch(/left join "workspaces"/i);
    // The other query is the token's check, as before the teams.
    expect(counted.count - guard.length, JSON.stringify(counted.sql)).toBe(1);
  });
});
