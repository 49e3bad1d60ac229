import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  knowledgeMessages,
  knowledgeSearchResponse,
  knowledgeUploadResponse,
  publicAssistantResponse,
  publicAssistantServerMessages as M,
  successMessages,
  upload,
} from "../../contract";
import { createApp } from "../../worker/app";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import type { IngestQueueMessage } from "../../worker/queues/messages";
import { makeCorruptDocx, makeDocx, makePdf } from "../fixtures/knowledge-files";
import { call, callWithEnv, errorOf, expectError, json, registerUser } from "./helpers";
import {
  assistantFootprint,
  createAssistant,
  ftsMatches,
  hubCountAll,
  hubFirst,
  hubRows,
  seedVisitorSession,
  uploadFiles,
  uploadForm,
  type UploadPart,
} from "./public-assistants-helpers";

const warrantyTxt: UploadPart = {
  name: "warranty.txt",
  bytes: "Warranty\n\nEvery kettle carries a two-year warranty covering parts and labour. Zephyrine descaling is free.",
  type: "text/plain",
};

async function setup() {
  const { token } = await registerUser();
  const assistant = await createAssistant(token, { name: "Docs" });
  return { token, assistantId: assistant._id };
}

const search = async (token: string, assistantId: string, q: string) =>
  json(await call(`/api/public-assistants/${assistantId}/search?q=${encodeURIComponent(q)}`, { token }), knowledgeSearchResponse);

/** A file's record, in its assistant's own object (where knowledge lives). */
const fileRow = (fileId: string) => hubFirst("SELECT * FROM knowledge_files WHERE id = ?", fileId);
const chunkCount = async (fileId: string) => ({ n: await hubCountAll("SELECT COUNT(*) AS n FROM knowledge_chunks WHERE file_id = ?", fileId) });

describe("POST /api/public-assistants/:id/files", () => {
  it("stores, ingests and indexes txt, pdf and docx files before answering", async () => {
    const { token, assistantId } = await setup();
    const pdf = makePdf([["Returns are accepted within thirty days.", "Quasimodo receipts are required."]]);
    const docx = await makeDocx([{ text: "Shipping", heading: 1 }, { text: "Orders ship within two business days from Marrakesh." }]);
    const res = await uploadFiles(token, assistantId, [
      warrantyTxt,
      { name: "returns.pdf", bytes: pdf, type: "application/pdf" },
      { name: "shipping.docx", bytes: docx, type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
    ]);
    expect(res.status).toBe(201);
    const body = await json(res, knowledgeUploadResponse);
    expect(body).toMatchObject({ processed: 3, failed: 0, message: successMessages.filesProcessed(3) });
    expect(body.files.map((f) => [f.name, f.status, f.error])).toEqual([
      ["warranty.txt", "ready", null],
      ["returns.pdf", "ready", null],
      ["shipping.docx", "ready", null],
    ]);
    for (const file of body.files) expect(file.chunkCount).toBeGreaterThan(0);
    expect(body.files[1]!.size).toBe(pdf.byteLength);

    // Stored in R2 under the assistant's prefix, one row each, listed on the assistant.
    const objects = await env.FILES.list({ prefix: `assistants/${assistantId}/files/` });
    expect(objects.objects.map((o) => o.key).sort()).toEqual(
      [`${body.files[0]!._id}/warranty.txt`, `${body.files[1]!._id}/returns.pdf`, `${body.files[2]!._id}/shipping.docx`]
        .map((k) => `assistants/${assistantId}/files/${k}`)
        .sort(),
    );
    const { assistant } = await json(await call(`/api/public-assistants/${assistantId}`, { token }), publicAssistantResponse);
    expect(assistant.files.map((f) => f._id).sort()).toEqual(body.files.map((f) => f._id).sort());
    expect(assistant.files.every((f) => f.status === "ready")).toBe(true);

    // Searchable through the owner's preview.
    const found = await search(token, assistantId, "how long does shipping take from Marrakesh");
    expect(found.mode).toBe("lexical");
    expect(found.results[0]).toMatchObject({ fileId: body.files[2]!._id, fileName: "shipping.docx", heading: "Shipping" });
    expect(found.results[0]!.excerpt).toContain("Marrakesh");
    expect((await search(token, assistantId, "Quasimodo")).results[0]?.fileName).toBe("returns.pdf");
    expect((await search(token, assistantId, "zephyrine")).results[0]?.fileName).toBe("warranty.txt");
  }, 20_000); // parses a real PDF and Word file: seconds under a loaded machine

  it("a corrupt docx fails alone with its reason while a good txt lands", async () => {
    const { token, assistantId } = await setup();
    const res = await uploadFiles(token, assistantId, [{ name: "broken.docx", bytes: await makeCorruptDocx() }, warrantyTxt]);
    expect(res.status).toBe(201);
    const body = await json(res, knowledgeUploadResponse);
    expect(body).toMatchObject({ processed: 1, failed: 1, message: successMessages.filesProcessed(1) });
    expect(body.files[0]).toMatchObject({ name: "broken.docx", status: "failed", error: knowledgeMessages.damaged("broken.docx"), chunkCount: 0 });
    expect(body.files[1]).toMatchObject({ name: "warranty.txt", status: "ready" });
    // The failed file left nothing: no row, no object, no chunk.
    expect(await fileRow(body.files[0]!._id)).toBeNull();
    expect(await assistantFootprint(assistantId)).toMatchObject({ files: 1, objects: 1 });
    const chunks = await chunkCount(body.files[0]!._id);
    expect(chunks?.n).toBe(0);
  });

  it("refuses a .pdf whose content is a zip, leaving nothing behind", async () => {
    const { token, assistantId } = await setup();
    const zip = await makeDocx([{ text: "I am really a Word file" }]);
    const res = await uploadFiles(token, assistantId, [{ name: "report.pdf", bytes: zip, type: "application/pdf" }]);
    await expectError(res, 415, knowledgeMessages.notValid("report.pdf", "PDF"));
    expect(await assistantFootprint(assistantId)).toMatchObject({ files: 0, chunks: 0, objects: 0 });
  });

  it("refuses a file of 15 MB + 1 byte with 413", async () => {
    const { token, assistantId } = await setup();
    const big = new Uint8Array(upload.maxFileBytes + 1).fill(0x61);
    const res = await uploadFiles(token, assistantId, [{ name: "big.txt", bytes: big, type: "text/plain" }]);
    await expectError(res, 413, knowledgeMessages.fileTooLarge("big.txt"));
    expect(await assistantFootprint(assistantId)).toMatchObject({ files: 0, objects: 0 });
  });

  it("takes a file of exactly 15 MB next to a refused one and reports each", async () => {
    const { token, assistantId } = await setup();
    const line = "Exactly fifteen megabytes of kettle facts, line after line.\n";
    const text = line.repeat(Math.floor(upload.maxFileBytes / line.length));
    const exact = new Uint8Array(upload.maxFileBytes).fill(0x20);
    exact.set(new TextEncoder().encode(text));
    const res = await uploadFiles(token, assistantId, [
      { name: "exact.txt", bytes: exact, type: "text/plain" },
      { name: "over.txt", bytes: new Uint8Array(upload.maxFileBytes + 1), type: "text/plain" },
    ]);
    expect(res.status).toBe(201);
    const body = await json(res, knowledgeUploadResponse);
    expect(body.files.map((f) => [f.name, f.status])).toEqual([
      ["exact.txt", "ready"],
      ["over.txt", "failed"],
    ]);
    expect(body.files[1]!.error).toBe(knowledgeMessages.fileTooLarge("over.txt"));
  }, 60_000);

  it("answers 422 with every reason when no file could be read", async () => {
    const { token, assistantId } = await setup();
    const res = await uploadFiles(token, assistantId, [
      { name: "locked.pdf", bytes: makePdf([["secret"]], { encrypted: true }), type: "application/pdf" },
      { name: "empty.txt", bytes: "", type: "text/plain" },
      { name: "virus.exe", bytes: "MZ", type: "application/octet-stream" },
    ]);
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    const reasons = [knowledgeMessages.passwordProtected("locked.pdf"), knowledgeMessages.empty("empty.txt"), knowledgeMessages.unsupportedType("virus.exe")];
    expect(error).toMatchObject({ code: "UNPROCESSABLE", error: reasons.join(" ") });
    expect(error.fields).toEqual({ "files.0": reasons[0], "files.1": reasons[1], "files.2": reasons[2] });
    expect(await assistantFootprint(assistantId)).toMatchObject({ files: 0, chunks: 0, objects: 0 });
  });

  it("refuses unsupported types with 415: by extension or by a declared type that does not fit", async () => {
    const { token, assistantId } = await setup();
    await expectError(await uploadFiles(token, assistantId, [{ name: "photo.png", bytes: "x", type: "image/png" }]), 415, knowledgeMessages.unsupportedType("photo.png"));
    await expectError(
      await uploadFiles(token, assistantId, [{ name: "guide.pdf", bytes: makePdf([["hi"]]), type: "image/png" }]),
      415,
      knowledgeMessages.unsupportedType("guide.pdf"),
    );
    // Generic or charset-qualified declarations are fine: the content is sniffed anyway.
    const ok = await uploadFiles(token, assistantId, [
      { name: "notes.md", bytes: "# Notes\n\nPlain words.", type: "application/octet-stream" },
      { name: "data.csv", bytes: "plan,price\npro,29\n", type: "text/csv; charset=utf-8" },
    ]);
    expect((await json(ok, knowledgeUploadResponse)).processed).toBe(2);
  });

  it("refuses a request that is not a multipart upload, or carries no file", async () => {
    const { token, assistantId } = await setup();
    const path = `/api/public-assistants/${assistantId}/files`;
    await expectError(await call(path, { token, json: { files: ["a.txt"] } }), 400, M.notMultipart);
    const form = new FormData();
    form.append("files", "just a string");
    form.append("other", new File(["x"], "x.txt"));
    await expectError(await call(path, { token, method: "POST", body: form }), 400, M.noFiles);
    const many = uploadForm(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, bytes: `file ${i}` })));
    await expectError(await call(path, { token, method: "POST", body: many }), 400, M.tooManyFiles(20));
  });

  it("keeps the owner's file name and stores it under a safe key", async () => {
    const { token, assistantId } = await setup();
    const res = await uploadFiles(token, assistantId, [{ name: "C:\\fakepath\\Résumé (v2).txt", bytes: "Curriculum vitae of a kettle.", type: "text/plain" }]);
    const [file] = (await json(res, knowledgeUploadResponse)).files;
    expect(file!.name).toBe("Résumé (v2).txt");
    const row = await fileRow(file!._id);
    expect(row?.r2_key).toBe(`assistants/${assistantId}/files/${file!._id}/Resume_v2.txt`);
  });
});

describe("GET /api/public-assistants/:id/files/:fileId/download", () => {
  it("serves the original bytes as an attachment that cannot run", async () => {
    const { token, assistantId } = await setup();
    const pdf = makePdf([["Downloadable text."]]);
    const res = await uploadFiles(token, assistantId, [{ name: "Guide été.pdf", bytes: pdf, type: "application/pdf" }]);
    const [file] = (await json(res, knowledgeUploadResponse)).files;
    const download = await call(`/api/public-assistants/${assistantId}/files/${file!._id}/download`, { token });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="Guide _t_.pdf"; filename*=UTF-8''Guide%20%C3%A9t%C3%A9.pdf`);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);
  });
});

describe("DELETE /api/public-assistants/:id/files/:fileId", () => {
  it("removes the R2 object, the chunks and the row", async () => {
    const { token, assistantId } = await setup();
    const res = await uploadFiles(token, assistantId, [warrantyTxt, { name: "other.txt", bytes: "Teapots are different from kettles.", type: "text/plain" }]);
    const [warranty, other] = (await json(res, knowledgeUploadResponse)).files;
    expect(await ftsMatches("zephyrine")).toBeGreaterThan(0);
    const key = (await fileRow(warranty!._id))?.r2_key as string;
    expect(await env.FILES.head(key)).not.toBeNull();

    const deleted = await call(`/api/public-assistants/${assistantId}/files/${warranty!._id}`, { token, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await env.FILES.head(key)).toBeNull();
    expect(await fileRow(warranty!._id)).toBeNull();
    const chunks = await chunkCount(warranty!._id);
    expect(chunks?.n).toBe(0);
    expect((await search(token, assistantId, "zephyrine")).results).toEqual([]);
    // The other file is untouched.
    expect((await search(token, assistantId, "teapots")).results[0]?.fileId).toBe(other!._id);
    expect(await assistantFootprint(assistantId)).toMatchObject({ files: 1, objects: 1 });
    expect((await call(`/api/public-assistants/${assistantId}/files/${warranty!._id}`, { token, method: "DELETE" })).status).toBe(404);
  });
});

describe("DELETE /api/public-assistants/:id", () => {
  it("leaves nothing orphaned: objects, files, chunks, FTS rows, vectors, sessions, messages", async () => {
    const { token, assistantId } = await setup();
    const keep = await createAssistant(token, { name: "Keep" });
    await uploadFiles(token, assistantId, [
      { name: "gone.txt", bytes: "Obliviate is the word that disappears with its assistant.", type: "text/plain" },
      { name: "gone.docx", bytes: await makeDocx([{ text: "Vanishing cabinet instructions." }]) },
    ]);
    await uploadFiles(token, keep._id, [{ name: "stays.txt", bytes: "Permanence is the word that stays.", type: "text/plain" }]);
    // Embed the doomed assistant's chunks, so vectors exist to be removed.
    await hubRows(assistantId, "UPDATE knowledge_chunks SET embedding = ?", new Uint8Array(16).buffer);
    await seedVisitorSession(assistantId, { messages: [{ role: "user", text: "hi" }, { role: "assistant", text: "hello" }] });
    await seedVisitorSession(assistantId, { messages: [{ role: "user", text: "again" }] });
    await seedVisitorSession(keep._id, { messages: [{ role: "user", text: "kept" }] });

    const before = await assistantFootprint(assistantId);
    expect(before).toMatchObject({ assistants: 1, files: 2, sessions: 2, messages: 3, objects: 2 });
    expect(before.chunks).toBeGreaterThan(0);
    expect(await ftsMatches("obliviate")).toBe(1);
    const keptBefore = await assistantFootprint(keep._id);

    expect((await call(`/api/public-assistants/${assistantId}`, { token, method: "DELETE" })).status).toBe(204);
    expect(await assistantFootprint(assistantId)).toEqual({ assistants: 0, files: 0, chunks: 0, sessions: 0, messages: 0, objects: 0 });
    expect(await ftsMatches("obliviate")).toBe(0);
    expect(await ftsMatches("vanishing")).toBe(0);
    expect(await assistantFootprint(keep._id)).toEqual(keptBefore);
    expect(await ftsMatches("permanence")).toBe(1);
  });
});

describe("embeddings through the tala-ingest queue", () => {
  const withEmbedder = { EMBEDDING_MODEL: "mock-embed" } as const;

  function fakeQueue() {
    const sent: IngestQueueMessage[] = [];
    const queue = {
      send: async (body: IngestQueueMessage) => void sent.push(body),
      sendBatch: async (messages: Iterable<{ body: IngestQueueMessage }>) => {
        for (const m of messages) sent.push(m.body);
      },
    };
    return { sent, queue };
  }

  const uploadWith = (bindings: Partial<Env>, token: string, assistantId: string, parts: UploadPart[]) =>
    createApp().fetch(
      new Request(`http://tala.test/api/public-assistants/${assistantId}/files`, {
        method: "POST",
        headers: { authorization: `Token ${token}`, "cf-connecting-ip": "10.9.9.9" },
        body: uploadForm(parts),
      }),
      { ...env, ...bindings } as unknown as Env,
      createExecutionContext(),
    );

  it("queues landed files when an embedder is configured, and not otherwise", async () => {
    const { token, assistantId } = await setup();
    const configured = fakeQueue();
    const res = await uploadWith({ ...withEmbedder, INGEST_QUEUE: configured.queue as unknown as Env["INGEST_QUEUE"] }, token, assistantId, [
      warrantyTxt,
      { name: "bad.pdf", bytes: "not a pdf", type: "application/pdf" },
    ]);
    const body = await json(res, knowledgeUploadResponse);
    expect(configured.sent).toEqual([{ assistantId, fileId: body.files[0]!._id }]);

    const unconfigured = fakeQueue();
    await uploadWith({ INGEST_QUEUE: unconfigured.queue as unknown as Env["INGEST_QUEUE"] }, token, assistantId, [warrantyTxt]);
    expect(unconfigured.sent).toEqual([]);
  });

  it("the queue consumer embeds the file's chunks, and search turns hybrid", async () => {
    const { token, assistantId } = await setup();
    const body = await json(await uploadFiles(token, assistantId, [warrantyTxt]), knowledgeUploadResponse);
    const fileId = body.files[0]!._id;
    const embedded = () =>
      hubCountAll("SELECT COUNT(*) AS n FROM knowledge_chunks WHERE file_id = ? AND embedding IS NOT NULL", fileId).then((n) => ({ n }));
    expect((await embedded())?.n).toBe(0);

    const batch = createMessageBatch<unknown>("tala-ingest", [
      { id: "embed-1", timestamp: new Date(), attempts: 1, body: { assistantId, fileId } },
      { id: "gone-1", timestamp: new Date(), attempts: 1, body: { assistantId, fileId: crypto.randomUUID() } },
      { id: "junk-1", timestamp: new Date(), attempts: 1, body: "not a message" },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, { ...env, ...withEmbedder } as unknown as Env);
    const result = await getQueueResult(batch, ctx);
    expect([...result.explicitAcks].sort()).toEqual(["embed-1", "gone-1", "junk-1"]);
    expect(result.retryMessages).toEqual([]);
    expect((await embedded())?.n).toBe(body.files[0]!.chunkCount);

    const hybrid = await json(await callWithEnv(withEmbedder, `/api/public-assistants/${assistantId}/search?q=kettle%20warranty`, { token }), knowledgeSearchResponse);
    expect(hybrid.mode).toBe("hybrid");
    expect(hybrid.results[0]?.fileId).toBe(fileId);
  });

  it("retries a message when the embeddings endpoint fails (here: answers 404)", async () => {
    const { token, assistantId } = await setup();
    const body = await json(await uploadFiles(token, assistantId, [warrantyTxt]), knowledgeUploadResponse);
    const batch = createMessageBatch<unknown>("tala-ingest", [
      { id: "fail-1", timestamp: new Date(), attempts: 2, body: { assistantId, fileId: body.files[0]!._id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, { ...env, EMBEDDING_MODEL: "mock-embed", LLM_BASE_URL: `${env.LLM_BASE_URL}/broken` } as unknown as Env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["fail-1"]);
  });
});
