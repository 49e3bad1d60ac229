import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { knowledgeTextLimits as L, knowledgeTextResponse, knowledgeUploadResponse, qaMessages as M, serverMessages } from "../../contract";
import { call, errorOf, json, registerUser } from "./helpers";
import { createAssistant, hubRows, uploadFiles } from "./public-assistants-helpers";
import { addText, getText, postText, putText } from "./texts-helpers";

const TEXT = { title: "Opening hours", content: "The quillfeather shop opens at nine every weekday." };

async function owner() {
  const { token } = await registerUser();
  const assistant = await createAssistant(token, { name: "Shop" });
  return { token, assistantId: assistant._id };
}

/** A 400 whose message names the field and the limit, given at that field. */
async function expectFieldError(res: Response, field: "title" | "content", message: string) {
  expect(res.status).toBe(400);
  const body = await errorOf(res);
  expect(body.code).toBe("VALIDATION_ERROR");
  expect(body.error).toBe(message);
  expect(body.fields?.[field]).toBe(message);
}

describe("bad input to POST …/texts", () => {
  it("is refused with a 400 naming the field and the limit, and nothing is stored", async () => {
    const { token, assistantId } = await owner();
    await expectFieldError(await postText(token, assistantId, { content: TEXT.content }), "title", M.titleRequired);
    await expectFieldError(await postText(token, assistantId, { title: "   ", content: TEXT.content }), "title", M.titleRequired);
    await expectFieldError(await postText(token, assistantId, { title: "x".repeat(L.maxTitleChars + 1), content: TEXT.content }), "title", M.titleTooLong(L.maxTitleChars));
    await expectFieldError(await postText(token, assistantId, { title: TEXT.title }), "content", M.contentRequired);
    await expectFieldError(await postText(token, assistantId, { title: TEXT.title, content: " \n\t " }), "content", M.contentRequired);
    await expectFieldError(await postText(token, assistantId, { title: TEXT.title, content: 42 }), "content", M.contentRequired);
    await expectFieldError(
      await postText(token, assistantId, { title: TEXT.title, content: "a".repeat(L.maxContentChars + 1) }),
      "content",
      M.contentTooLong(L.maxContentChars),
    );
    // Past the limit in characters that weigh three bytes each: still the limit's 400, not a 413.
    await expectFieldError(
      await postText(token, assistantId, { title: TEXT.title, content: "語".repeat(L.maxContentChars + 1) }),
      "content",
      M.contentTooLong(L.maxContentChars),
    );
    const notJson = await call(`/api/public-assistants/${assistantId}/texts`, { token, method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).error).toBe(serverMessages.invalidJson);

    expect(await hubRows(assistantId, "SELECT id FROM knowledge_files")).toEqual([]);
  });
});

describe("PUT …/texts/{fileId}", () => {
  it("refuses bad input with the field's message and keeps the text as it was", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, TEXT);
    await expectFieldError(await putText(token, assistantId, added.file._id, { title: "", content: "New" }), "title", M.titleRequired);
    await expectFieldError(
      await putText(token, assistantId, added.file._id, { title: "New", content: "b".repeat(L.maxContentChars + 1) }),
      "content",
      M.contentTooLong(L.maxContentChars),
    );
    expect(await json(await getText(token, assistantId, added.file._id), knowledgeTextResponse)).toEqual(added);
  });

  it("answers 404 for an unknown id and for a file that is not a text, which stays untouched", async () => {
    const { token, assistantId } = await owner();
    const uploaded = await json(
      await uploadFiles(token, assistantId, [{ name: "hours.txt", bytes: "The shop opens at nine.", type: "text/plain" }]),
      knowledgeUploadResponse,
    );
    const fileId = uploaded.files[0]!._id;
    for (const id of [fileId, crypto.randomUUID()]) {
      const get = await getText(token, assistantId, id);
      expect(get.status).toBe(404);
      expect((await errorOf(get)).error).toBe(M.textNotFound);
      const put = await putText(token, assistantId, id, TEXT);
      expect(put.status).toBe(404);
      expect((await errorOf(put)).error).toBe(M.textNotFound);
    }
    const [row] = await hubRows(assistantId, "SELECT name, kind FROM knowledge_files WHERE id = ?", fileId);
    expect(row).toEqual({ name: "hours.txt", kind: "file" });
    expect((await call(`/api/public-assistants/${assistantId}/files/${fileId}/download`, { token })).status).toBe(200);
  });

  it("after the text was deleted answers 404 and leaves no object behind", async () => {
    const { token, assistantId } = await owner();
    const added = await addText(token, assistantId, TEXT);
    expect((await call(`/api/public-assistants/${assistantId}/files/${added.file._id}`, { token, method: "DELETE" })).status).toBe(204);
    const put = await putText(token, assistantId, added.file._id, TEXT);
    expect(put.status).toBe(404);
    expect((await env.FILES.list({ prefix: `assistants/${assistantId}/` })).objects).toEqual([]);
  });
});
