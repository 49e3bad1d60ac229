import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { knowledgeTextResponse, publicAssistantResponse, serverMessages } from "../../contract";
import { call, errorOf, json, registerUser } from "./helpers";
import { createAssistant, hubRows } from "./public-assistants-helpers";
import { addText, getText, postText, putText, searchFor } from "./texts-helpers";

const SECRET = { title: "Staff discount", content: "The staff discount code is Bellerophon-77." };

async function ownerWithText() {
  const owner = await registerUser();
  const assistant = await createAssistant(owner.token, { name: "Private bot" });
  const text = await addText(owner.token, assistant._id, SECRET);
  return { owner, assistantId: assistant._id, text };
}

describe("texts: who may call", () => {
  it("anonymous callers get 401 on every text route", async () => {
    const { assistantId, text } = await ownerWithText();
    for (const res of [await postText(undefined, assistantId, SECRET), await getText(undefined, assistantId, text.file._id), await putText(undefined, assistantId, text.file._id, SECRET)]) {
      expect(res.status).toBe(401);
      expect((await errorOf(res)).error).toBe(serverMessages.authRequired);
    }
  });

  it("another owner gets 404 on someone else's assistant and text, reads nothing and changes nothing", async () => {
    const { owner, assistantId, text } = await ownerWithText();
    const intruder = await registerUser();
    const own = await createAssistant(intruder.token, { name: "Intruder's own" });
    const objectsBefore = (await env.FILES.list({ prefix: `assistants/${assistantId}/` })).objects.map((o) => o.key);

    const attempts = [
      await postText(intruder.token, assistantId, { title: "Planted", content: "Planted passage about Bellerophon." }),
      await getText(intruder.token, assistantId, text.file._id),
      await putText(intruder.token, assistantId, text.file._id, { title: "Hijacked", content: "Hijacked content." }),
      // Their own assistant's address with the victim's text id: still not theirs.
      await getText(intruder.token, own._id, text.file._id),
      await putText(intruder.token, own._id, text.file._id, { title: "Hijacked", content: "Hijacked content." }),
      await call(`/api/public-assistants/${own._id}/files/${text.file._id}`, { token: intruder.token, method: "DELETE" }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(body).not.toContain("Bellerophon");
      expect(body).not.toContain("Staff discount");
    }

    expect(await json(await getText(owner.token, assistantId, text.file._id), knowledgeTextResponse)).toEqual(text);
    expect(await hubRows(assistantId, "SELECT id FROM knowledge_files")).toHaveLength(1);
    expect((await env.FILES.list({ prefix: `assistants/${assistantId}/` })).objects.map((o) => o.key)).toEqual(objectsBefore);
    expect(await hubRows(own._id, "SELECT id FROM knowledge_files")).toEqual([]);
    expect(await searchFor(intruder.token, own._id, "Bellerophon")).toEqual([]);
    const { assistant } = await json(await call(`/api/public-assistants/${assistantId}`, { token: owner.token }), publicAssistantResponse);
    expect(assistant.files.map((f) => f.name)).toEqual([SECRET.title]);
  });

  it("a text's content is stored and answered as data: markup is neither run nor altered", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Markup" });
    const hostile = { title: "<img src=x onerror=alert(1)>", content: "<script>alert('x')</script>\n\n# Heading\n\nPlain words about quillfeathers." };
    const added = await addText(token, assistant._id, hostile);
    expect(added).toMatchObject(hostile);
    const res = await getText(token, assistant._id, added.file._id);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json(res, knowledgeTextResponse)).toMatchObject(hostile);
    const download = await call(`/api/public-assistants/${assistant._id}/files/${added.file._id}/download`, { token });
    expect(download.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment/);
  });
});
