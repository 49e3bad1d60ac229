import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { knowledgeMessages } from "../../contract";
import { hubKnowledgeIndex } from "../../worker/assistant/hub-knowledge-index";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import {
  HashingEmbeddings,
  IndexVectorStore,
  deleteFileKnowledge,
  embedFileChunks,
  extractFile,
  hybridSearch,
  ingestFile,
  lexicalSearch,
  sniffFile,
} from "../../worker/knowledge";
import { extractDocxStreaming } from "../../worker/knowledge/extract/docx-stream";
import { extractXlsxStreaming } from "../../worker/knowledge/extract/xlsx-stream";
import { readZipDirectory } from "../../worker/knowledge/zip";
import { makeCorruptDocx, makeDoc, makeDocx, makePdf, makeWorkbook, utf8 } from "../fixtures/knowledge-files";
import { hubCountAll, hubFirst, hubRows } from "./public-assistants-helpers";

// The knowledge engine inside workerd: each assistant's index (file records, chunks, FTS5) in its
// own Durable Object (AssistantHub SQLite), files in miniflare's R2.

/** The assistant's knowledge index (its own object). */
const idx = (assistantId: string) => hubKnowledgeIndex(env, assistantId);

const now = Date.now();

async function createAssistant() {
  const userId = crypto.randomUUID();
  const assistantId = crypto.randomUUID();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, email, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)").bind(
      userId,
      `owner-${userId.slice(0, 8)}@example.com`,
      now,
    ),
    env.DB.prepare(
      `INSERT INTO public_assistants (id, user_id, api_key_hash, api_key_encrypted, api_key_masked, config, integration, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'enc', 'tala_pk_…', '{}', '{}', ?4, ?4)`,
    ).bind(assistantId, userId, `hash-${assistantId}`, now),
  ]);
  return assistantId;
}

async function createFile(assistantId: string, name: string, size: number) {
  const fileId = crypto.randomUUID();
  const r2Key = `knowledge/${assistantId}/${fileId}`;
  await getAssistantHub(env, assistantId).knowledge().addFile({ id: fileId, name, size, mimeType: "application/octet-stream", r2Key, uploadedAt: now });
  return { fileId, r2Key };
}

const fileRow = async (fileId: string) => {
  const row = await hubFirst("SELECT status, error, chunk_count AS chunkCount FROM knowledge_files WHERE id = ?", fileId);
  return row as { status: string; error: string | null; chunkCount: number } | null;
};
const chunkCount = (fileId: string) => hubCountAll("SELECT COUNT(*) AS n FROM knowledge_chunks WHERE file_id = ?", fileId);

describe("extraction inside workerd", () => {
  it("reads pdf, docx, xlsx, xls and doc", async () => {
    const files: [string, Uint8Array, string][] = [
      ["guide.pdf", makePdf([["The warranty lasts two years."], ["Page two text."]]), "The warranty lasts two years."],
      ["guide.docx", await makeDocx([{ text: "Warranty", heading: 1 }, { text: "Two years, parts and labour." }]), "Two years, parts and labour."],
      ["prices.xlsx", makeWorkbook({ Prices: [["Plan", "Price"], ["Pro", 29]] }), "Plan: Pro; Price: 29"],
      ["prices.xls", makeWorkbook({ Prices: [["Plan", "Price"], ["Pro", 29]] }, "biff8"), "Plan: Pro; Price: 29"],
      ["old.doc", makeDoc([{ text: "Legacy ", compressed: true }, { text: "document — été.\r" }]), "Legacy document — été."],
    ];
    for (const [name, bytes, expected] of files) {
      const document = await extractFile(sniffFile({ name, bytes }), bytes);
      expect(document.blocks.map((b) => b.text)).toContain(expected);
    }
  });
});

describe("streaming readers inside workerd (counted pako inflate)", () => {
  it("reads a docx and an xlsx without mammoth or SheetJS", async () => {
    const docx = await makeDocx([{ text: "Warranty", heading: 1 }, { text: "Two years, parts and labour." }], [["Part", "Years"], ["Motor", "5"]]);
    expect((await extractDocxStreaming(docx, readZipDirectory(docx)!, "w.docx")).blocks).toEqual([
      { kind: "heading", level: 1, text: "Warranty" },
      { kind: "paragraph", text: "Two years, parts and labour." },
      { kind: "row", text: "Part: Motor; Years: 5" },
    ]);
    const xlsx = makeWorkbook({ Prices: [["Plan", "Price"], ["Pro", 29]] });
    expect((await extractXlsxStreaming(xlsx, readZipDirectory(xlsx)!, "p.xlsx")).blocks).toEqual([
      { kind: "heading", level: 2, text: "Prices" },
      { kind: "row", text: "Plan: Pro; Price: 29" },
    ]);
  });
});

describe("ingest and search in the assistant's own object with FTS5", () => {
  let assistantId: string;
  let otherAssistantId: string;
  const embedder = new HashingEmbeddings(256);
  const vectors = new IndexVectorStore(idx);

  beforeAll(async () => {
    assistantId = await createAssistant();
    otherAssistantId = await createAssistant();
  });

  it("ingests a docx, marks it ready and finds its passage lexically and by hybrid search", async () => {
    const paragraphs = [
      { text: "Shipping", heading: 1 },
      { text: "Orders ship from our Lyon warehouse within two business days." },
      { text: "Returns", heading: 1 },
      { text: "Unworn shoes can be returned within thirty days for a full refund." },
    ];
    const bytes = await makeDocx(paragraphs);
    const { fileId } = await createFile(assistantId, "policies.docx", bytes.length);
    const result = await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "policies.docx", bytes, embedder, vectors });
    expect(result).toMatchObject({ ok: true, kind: "docx", chunkCount: 2, embedded: true, truncated: false });
    expect(await fileRow(fileId)).toEqual({ status: "ready", error: null, chunkCount: 2 });

    const lexical = await lexicalSearch(idx(assistantId), "How do I get a refund for my shoes?", 5);
    expect(lexical[0]).toMatchObject({ fileId, fileName: "policies.docx", heading: "Returns", lexicalRank: 1 });
    expect(lexical[0]!.content).toContain("full refund");

    const hybrid = await hybridSearch({ index: idx(assistantId), assistantId, query: "refunds for shoes", embedder, vectors, k: 3 });
    expect(hybrid.mode).toBe("hybrid");
    expect(hybrid.hits[0]).toMatchObject({ fileId, heading: "Returns", lexicalRank: 1, vectorRank: 1 });

    // A passage only the vector side finds: a "semantic" fake maps "delivery" to shipping words,
    // while no chunk contains the word (the lexical list is empty).
    const semantic = { model: "synonyms", dimensions: 256, embed: (texts: string[]) => embedder.embed(texts.map((t) => t.replace(/delivery/gi, "orders ship warehouse"))) };
    expect(await lexicalSearch(idx(assistantId), "delivery", 5)).toEqual([]);
    const vectorOnly = await hybridSearch({ index: idx(assistantId), assistantId, query: "delivery", embedder: semantic, vectors, k: 1 });
    expect(vectorOnly.hits).toHaveLength(1);
    expect(vectorOnly.hits[0]).toMatchObject({ fileId, fileName: "policies.docx", heading: "Shipping", vectorRank: 1 });
    expect(vectorOnly.hits[0]!.lexicalRank).toBeUndefined();

    // Another assistant sees none of it.
    expect(await lexicalSearch(idx(otherAssistantId), "refund shoes", 5)).toEqual([]);
    expect((await hybridSearch({ index: idx(otherAssistantId), assistantId: otherAssistantId, query: "refund", embedder, vectors })).hits).toEqual([]);
  });

  it("reads the bytes from R2 when none are passed, and embeds later on demand", async () => {
    const bytes = makePdf([["Our support line is open Monday to Friday, 9 to 17."]]);
    const { fileId, r2Key } = await createFile(assistantId, "support.pdf", bytes.length);
    await env.FILES.put(r2Key, bytes);
    const result = await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "support.pdf" });
    expect(result).toMatchObject({ ok: true, kind: "pdf", chunkCount: 1, embedded: false });
    expect(await embedFileChunks({ index: idx(assistantId), assistantId, fileId, embedder, vectors })).toBe(1);
    const { hits } = await hybridSearch({ index: idx(assistantId), assistantId, query: "When is support open?", embedder, vectors });
    expect(hits[0]).toMatchObject({ fileId, fileName: "support.pdf" });
  });

  it("indexes a large spreadsheet in batches and finds one row", async () => {
    const rows = [["SKU", "Product", "Stock"], ...Array.from({ length: 3000 }, (_, i) => [`SKU-${i}`, `Product ${i}`, i % 50])];
    rows[2500] = ["SKU-2500", "Aurora desk lamp", 7];
    const bytes = makeWorkbook({ Inventory: rows });
    const { fileId } = await createFile(assistantId, "inventory.xlsx", bytes.length);
    const result = await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "inventory.xlsx", bytes });
    expect(result.ok).toBe(true);
    const count = await chunkCount(fileId);
    expect(count).toBeGreaterThan(50);
    const hits = await lexicalSearch(idx(assistantId), "aurora lamp", 3);
    expect(hits[0]!.content).toContain("Product: Aurora desk lamp; Stock: 7");
    expect(hits[0]!.heading).toBe("Inventory");
  });

  it("marks a corrupt file failed with its reason and leaves no chunk", async () => {
    const bytes = await makeCorruptDocx();
    const { fileId } = await createFile(assistantId, "notes.docx", bytes.length);
    const result = await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "notes.docx", bytes, embedder, vectors });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("damaged");
    expect(await fileRow(fileId)).toEqual({ status: "failed", error: knowledgeMessages.damaged("notes.docx"), chunkCount: 0 });
    expect(await chunkCount(fileId)).toBe(0);
  });

  it("refuses a file whose content does not match its extension, and a missing R2 object", async () => {
    const zip = await makeDocx([{ text: "x" }]);
    const { fileId } = await createFile(assistantId, "report.pdf", zip.length);
    const refused = await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "report.pdf", bytes: zip });
    expect(refused.ok).toBe(false);
    expect((await fileRow(fileId))!.error).toBe("report.pdf is not a valid PDF file.");

    const missing = await createFile(assistantId, "gone.txt", 10);
    const result = await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId: missing.fileId, name: "gone.txt" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe("missing");
  });

  it("re-ingesting replaces the chunks; deleting removes chunks, FTS entries and vectors", async () => {
    const { fileId } = await createFile(assistantId, "faq.md", 100);
    const first = utf8("# FAQ\n\nThe zeppelin tour starts at noon.\n");
    await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "faq.md", bytes: first, embedder, vectors });
    const second = utf8("# FAQ\n\nThe zeppelin tour starts at three.\n");
    await ingestFile({ index: idx(assistantId), files: env.FILES, assistantId, fileId, name: "faq.md", bytes: second, embedder, vectors });
    const hits = await lexicalSearch(idx(assistantId), "zeppelin", 5);
    expect(hits.map((h) => h.content)).toEqual(["The zeppelin tour starts at three."]);

    expect(await deleteFileKnowledge({ index: idx(assistantId), assistantId, fileId, vectors })).toEqual({ chunks: 1 });
    expect(await lexicalSearch(idx(assistantId), "zeppelin", 5)).toEqual([]);
    expect(await chunkCount(fileId)).toBe(0);
    const results = await hubRows(assistantId, "SELECT rowid FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH 'zeppelin'");
    expect(results).toEqual([]);
  });

  it("never fails on hostile or odd queries against real FTS5", async () => {
    for (const query of ['"', "*", "AND (", "NEAR(", "title:x", "😀", "ما هي سياسة الاسترجاع؟", "", "   ", "a".repeat(5000)]) {
      await expect(lexicalSearch(idx(assistantId), query, 3)).resolves.toBeInstanceOf(Array);
      await expect(hybridSearch({ index: idx(assistantId), assistantId, query, embedder, vectors })).resolves.toHaveProperty("hits");
    }
  });

  it("falls back to lexical search when the embedder fails", async () => {
    const broken = { model: "broken", dimensions: 3, embed: () => Promise.reject(new Error("endpoint down")) };
    const result = await hybridSearch({ index: idx(assistantId), assistantId, query: "refund", embedder: broken, vectors });
    expect(result).toMatchObject({ mode: "lexical", vectorError: "endpoint down" });
    expect(result.hits.length).toBeGreaterThan(0);
  });
});
