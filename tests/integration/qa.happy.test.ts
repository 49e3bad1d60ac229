import { describe, expect, it } from "vitest";
import { qaImportResponse, qaListResponse, qaMessages, qaResponse, widgetServerFrameSchema } from "../../contract";
import { call, json, randomIp } from "./helpers";
import { insightsOf } from "./insights-helpers";
import { createAssistant } from "./public-assistants-helpers";
import { addQa, importCsv } from "./qa-helpers";
import { registerUser } from "./helpers";
import { sendOverSse, sseFrames, startSession, widgetAssistant } from "./widget-helpers";

/** Curated answers: the owner's CRUD, import and export, and a visitor's turn answered by one. */

describe("curated answers: the owner", () => {
  it("adds, lists with search and pages, edits and deletes pairs", async () => {
    const { token } = await registerUser();
    const { _id: id } = await createAssistant(token);
    const first = await addQa(token, id, { question: "How do I return an item?", answer: "From **Orders**.", variants: ["Send back a product", " "] });
    expect(first).toMatchObject({ question: "How do I return an item?", variants: ["Send back a product"], mode: "guide", uses: 0 });
    await addQa(token, id, { question: "Do you ship abroad?", answer: "To the EU and the US.", mode: "exact" });
    const all = await json(await call(`/api/public-assistants/${id}/qa`, { token }), qaListResponse);
    expect(all.total).toBe(2);
    expect(all.qa[0]?.question).toBe("Do you ship abroad?");
    const found = await json(await call(`/api/public-assistants/${id}/qa?q=${encodeURIComponent("send back")}`, { token }), qaListResponse);
    expect(found.qa.map((p) => p.id)).toEqual([first.id]);
    const read = await call(`/api/public-assistants/${id}/qa/${first.id}`, { token });
    expect(read.status).toBe(200);
    expect((await json(read, qaResponse)).qa).toEqual(first);
    const patched = await call(`/api/public-assistants/${id}/qa/${first.id}`, { token, method: "PATCH", json: { mode: "exact", answer: "Start it from Orders." } });
    expect((await json(patched, qaResponse)).qa).toMatchObject({ mode: "exact", answer: "Start it from Orders.", question: "How do I return an item?" });
    expect((await call(`/api/public-assistants/${id}/qa/${first.id}`, { token, method: "DELETE" })).status).toBe(204);
    expect((await json(await call(`/api/public-assistants/${id}/qa`, { token }), qaListResponse)).total).toBe(1);
    expect((await call(`/api/public-assistants/${id}/qa/${first.id}`, { token })).status).toBe(404);
  });

  it("imports a CSV (quotes, CRLF, BOM), keeps the good rows, reports each bad one, and exports it back safely", async () => {
    const { token } = await registerUser();
    const { _id: id } = await createAssistant(token);
    await addQa(token, id, { question: "Are returns free?", answer: "Yes." });
    const csv =
      '\uFEFFquestion,answer,variants\r\n"How long does shipping take?","2-4 days, ""standard""",When will it arrive?|Delivery times\r\n' +
      ",no question,\r\n" +
      "ARE RETURNS FREE??,dup of an existing pair,\r\n" +
      'Gift wrap?,"=HYPERLINK(""x"")",\r\n' +
      "gift wrap,dup of line 5,\r\n";
    const res = await importCsv(token, id, csv);
    expect(res.status, await res.clone().text()).toBe(200);
    const result = await json(res, qaImportResponse);
    expect(result.imported).toBe(2);
    expect(result.failed).toEqual([
      { line: 3, error: qaMessages.questionRequired },
      { line: 4, error: qaMessages.duplicateQuestion("Are returns free?") },
      { line: 6, error: qaMessages.duplicateQuestion("Gift wrap?") },
    ]);
    const exported = await call(`/api/public-assistants/${id}/qa/export`, { token });
    expect(exported.headers.get("content-type")).toContain("text/csv");
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment;/);
    const text = await exported.text();
    expect(text).toContain('How long does shipping take?,"2-4 days, ""standard""",When will it arrive?|Delivery times');
    expect(text).toContain("Gift wrap?,\"'=HYPERLINK(\"\"x\"\")\",");
  });
});

describe("curated answers: a visitor's turn", () => {
  it("an exact pair is the reply (streamed, no model, its source the site's own answer), counted in its uses and insights", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const pair = await addQa(token, assistant._id, { question: "How do I return an item?", answer: "Start a return from **Orders** in your account, print the label, and drop the parcel at any post office within 30 days.", mode: "exact" });
    const { sessionId } = await startSession(key);
    const frames = (await sseFrames(await sendOverSse(key, sessionId, { content: "how do i retrun an item" }, { ip: randomIp() }))).map((f) => widgetServerFrameSchema.parse(f));
    const deltas = frames.filter((f) => f.event === "message-delta");
    expect(deltas.length).toBeGreaterThan(1);
    const reply = frames.filter((f) => f.event === "new-message").map((f) => f.data.message).find((m) => m.role === "assistant");
    expect(reply?.content.data).toBe(pair.answer);
    expect(reply?.sources).toEqual([expect.objectContaining({ kind: "qa", qaId: pair.id, name: qaMessages.sourceLabel })]);
    const listed = await json(await call(`/api/public-assistants/${assistant._id}/qa`, { token }), qaListResponse);
    expect(listed.qa[0]?.uses).toBe(1);
    const insights = await insightsOf(token, assistant._id, 7);
    expect(insights.curatedAnswers).toEqual({ exact: 1, guided: 0 });
  });

  it("a knowledge gap a pair now answers shows as resolved", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const { sessionId } = await startSession(key);
    await sseFrames(await sendOverSse(key, sessionId, { content: "Do you offer gift wrapping?" }, { ip: randomIp() }));
    expect((await insightsOf(token, assistant._id, 7)).gaps[0]?.resolvedBy).toBeUndefined();
    const pair = await addQa(token, assistant._id, { question: "Do you offer gift wrapping?", answer: "Yes, €3." });
    expect((await insightsOf(token, assistant._id, 7)).gaps[0]?.resolvedBy).toBe(pair.id);
  });
});
