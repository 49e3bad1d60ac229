import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { knowledgeTextLimits, knowledgeTextResponse, publicAssistantResponse } from "../../contract";
import { call, json, registerUser } from "./helpers";
import { createAssistant, hubRows } from "./public-assistants-helpers";
import { addText, getText, putText, searchFor } from "./texts-helpers";
import { SHOP_ORIGIN, sendOverSse, sseFrames, startSession, widgetAssistant } from "./widget-helpers";

const RETURNS = {
  title: "Returns for quillfeather pens",
  content: "# Returns\n\nA quillfeather pen can be returned within 60 days of purchase.\n\n- Keep the receipt.\n- Refunds reach your card in 3 days.",
};

async function owner() {
  const { token } = await registerUser();
  const assistant = await createAssistant(token, { name: "Pens" });
  return { token, assistantId: assistant._id };
}

describe("text snippets", () => {
  it("are added, indexed before the answer, and listed with the files as a text named by their title", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, { title: `  ${RETURNS.title} `, content: `${RETURNS.content}\n\n` });
    expect(added.title).toBe(RETURNS.title);
    expect(added.content).toBe(RETURNS.content);
    expect(added.file).toMatchObject({ name: RETURNS.title, kind: "text", status: "ready", error: null, size: new TextEncoder().encode(RETURNS.content).byteLength });
    expect(added.file.chunkCount).toBeGreaterThan(0);

    const { assistant } = await json(await call(`/api/public-assistants/${assistantId}`, { token }), publicAssistantResponse);
    expect(assistant.files).toEqual([added.file]);

    // Its original is a Markdown object in R2; every passage carries the title in its heading path.
    const [record] = await hubRows(assistantId, "SELECT kind, mime_type, r2_key FROM knowledge_files");
    expect(record).toMatchObject({ kind: "text", mime_type: "text/markdown" });
    expect(await (await env.FILES.get(String(record!.r2_key)))!.text()).toBe(RETURNS.content);
    const chunks = await hubRows(assistantId, "SELECT heading FROM knowledge_chunks");
    expect(chunks.every((c) => String(c.heading).startsWith(RETURNS.title))).toBe(true);
  });

  it("answers its title and content to edit, and downloads as Markdown", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, RETURNS);
    const res = await getText(token, assistantId, added.file._id);
    expect(res.status).toBe(200);
    expect(await json(res, knowledgeTextResponse)).toEqual(added);

    const download = await call(`/api/public-assistants/${assistantId}/files/${added.file._id}/download`, { token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain(".md");
    expect(await download.text()).toBe(RETURNS.content);
  });

  it("is found by the search preview, by its content and by its title", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, RETURNS);
    const byContent = await searchFor(token, assistantId, "quillfeather returned within 60 days");
    expect(byContent[0]).toMatchObject({ fileId: added.file._id, fileName: RETURNS.title });
    expect(byContent[0]!.excerpt).toContain("60 days");
    expect((await searchFor(token, assistantId, "quillfeather"))[0]?.fileId).toBe(added.file._id);
  });

  it("answers a visitor, cited with its title as the source's name", async () => {
    const { token, assistant, key } = await widgetAssistant({ showSources: true }, { upload: false });
    const added = await addText(token, assistant._id, RETURNS);
    const { sessionId } = await startSession(key, { origin: SHOP_ORIGIN });
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "[[echo]] How many days to return a quillfeather pen?" }, { origin: SHOP_ORIGIN }));
    const final = frames.at(-2)!;
    if (final.event !== "new-message") throw new Error("expected the final new-message");
    expect(final.data.message.content.data).toContain("within 60 days of purchase");
    expect(final.data.sources).toEqual([expect.objectContaining({ fileId: added.file._id, name: RETURNS.title })]);
  });

  it("is indexed again on save: the old text is no longer found, the new one is, under the new title", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, RETURNS);
    const [before] = await hubRows(assistantId, "SELECT r2_key FROM knowledge_files");
    const edited = { title: "Exchanges for quillfeather pens", content: "Quillfeather pens may be exchanged for marbleink refills within 14 days." };
    const res = await putText(token, assistantId, added.file._id, edited);
    expect(res.status, await res.clone().text()).toBe(200);
    const saved = await json(res, knowledgeTextResponse);
    expect(saved).toMatchObject({ title: edited.title, content: edited.content, file: { _id: added.file._id, name: edited.title, kind: "text", status: "ready", uploadedAt: added.file.uploadedAt } });

    const old = await searchFor(token, assistantId, "returned within 60 days receipt");
    expect(old.map((r) => r.excerpt).join(" ")).not.toMatch(/60 days|receipt/);
    const found = await searchFor(token, assistantId, "marbleink refills");
    expect(found[0]).toMatchObject({ fileId: added.file._id, fileName: edited.title });
    expect(await json(await getText(token, assistantId, added.file._id), knowledgeTextResponse)).toEqual(saved);

    // One record, only the new passages, and only the new version's object in R2.
    const rows = await hubRows(assistantId, "SELECT r2_key FROM knowledge_files");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.r2_key).not.toBe(before!.r2_key);
    expect(await env.FILES.head(String(before!.r2_key))).toBeNull();
    const chunks = await hubRows(assistantId, "SELECT content FROM knowledge_chunks");
    expect(chunks.map((c) => String(c.content)).join(" ")).not.toContain("60 days");
    expect(chunks).toHaveLength(saved.file.chunkCount);
  });

  it("takes the longest content the contract allows", async () => {
    const { token, assistantId } = await owner();
    const sentence = "Every quillfeather nib is polished by hand in our workshop. ";
    const content = sentence.repeat(Math.ceil(knowledgeTextLimits.maxContentChars / sentence.length)).slice(0, knowledgeTextLimits.maxContentChars).trim();
    const added = await addText(token, assistantId, { title: "Nibs", content });
    expect(added.file.chunkCount).toBeGreaterThan(10);
    const res = await putText(token, assistantId, added.file._id, { title: "Nibs", content: `é${content.slice(1)}` });
    expect(res.status).toBe(200);
  });

  it("is deleted with the files' DELETE route: record, passages and objects gone", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, RETURNS);
    await putText(token, assistantId, added.file._id, { title: RETURNS.title, content: "Quillfeather pens: returns within 30 days." });
    const del = await call(`/api/public-assistants/${assistantId}/files/${added.file._id}`, { token, method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await hubRows(assistantId, "SELECT id FROM knowledge_files")).toEqual([]);
    expect(await hubRows(assistantId, "SELECT id FROM knowledge_chunks")).toEqual([]);
    expect((await env.FILES.list({ prefix: `assistants/${assistantId}/` })).objects).toEqual([]);
    expect(await searchFor(token, assistantId, "quillfeather")).toEqual([]);
    expect((await getText(token, assistantId, added.file._id)).status).toBe(404);
  });
});
