import { describe, expect, it } from "vitest";
import { EmbeddingError, HashingEmbeddings, OpenAiCompatibleEmbeddings, WorkersAiEmbeddings, embeddingProviderFromEnv } from "./embeddings";
import { reciprocalRankFusion, toFtsQuery } from "./search";
import { MemoryVectorStore, VectorizeStore, blobToVector, cosine, vectorToBlob, type VectorizeLike } from "./vectors";

describe("toFtsQuery", () => {
  it("quotes terms, ORs them, prefixes longer ones and trims plurals", () => {
    expect(toFtsQuery("What is your refund policy?")).toBe('"refund"* OR "policy"*');
    expect(toFtsQuery("refunds")).toBe('"refund"*');
    expect(toFtsQuery("a big map")).toBe('"big" OR "map"');
  });

  it("never lets FTS5 syntax through and never throws", () => {
    const hostile = ['"', "*", "AND (", 'NEAR("a" "b")', "title:secret", "-x +y ^z", "') OR 1=1 --", "\u0000", "😀🎉", ""];
    for (const input of hostile) {
      const query = toFtsQuery(input);
      expect(typeof query).toBe("string");
      // Only quoted terms, OR and the prefix star remain.
      expect(query.replace(/"[^"]*"\*?/g, "").replace(/ OR /g, "")).toBe("");
    }
    expect(toFtsQuery("AND (")).toBe('"and"');
    expect(toFtsQuery("😀")).toBe("");
    expect(toFtsQuery(undefined as unknown as string)).toBe("");
  });

  it("keeps Arabic, accented and CJK terms, and stop words when nothing else is left", () => {
    expect(toFtsQuery("ما هي سياسة الاسترجاع؟")).toBe('"ما" OR "هي" OR "سياسة"* OR "الاسترجاع"*');
    expect(toFtsQuery("Où est la livraison gratuite ?")).toBe('"où" OR "livraison"* OR "gratuite"*');
    expect(toFtsQuery("退款政策")).toBe('"退款政策"*');
    expect(toFtsQuery("the and of")).toBe('"the" OR "and" OR "of"');
  });

  it("caps the number and length of terms", () => {
    const many = Array.from({ length: 100 }, (_, i) => `term${i}`).join(" ");
    expect(toFtsQuery(many).split(" OR ")).toHaveLength(24);
    expect(toFtsQuery("x".repeat(500))).toBe(`"${"x".repeat(64)}"*`);
  });
});

describe("reciprocalRankFusion", () => {
  it("rewards items found by both lists", () => {
    const fused = reciprocalRankFusion([
      [1, 2, 3],
      [3, 4, 1],
    ]);
    expect(fused.map((f) => f.id)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 63);
  });

  it("is deterministic on ties and handles empty lists", () => {
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(reciprocalRankFusion([["b"], ["a"]]).map((f) => f.id)).toEqual(["a", "b"]);
    expect(reciprocalRankFusion([[5, 6]], 1).map((f) => f.score)).toEqual([1 / 2, 1 / 3]);
  });
});

describe("HashingEmbeddings (the test fake)", () => {
  it("is deterministic, normalised, and puts texts sharing words close", async () => {
    const fake = new HashingEmbeddings(128);
    const [a, b, c, a2] = await fake.embed(["refund policy for shoes", "shoes refund", "opening hours monday", "refund policy for shoes"]);
    expect(a).toEqual(a2);
    expect(Math.hypot(...a!)).toBeCloseTo(1);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
  });
});

describe("OpenAiCompatibleEmbeddings", () => {
  const answer = (vectors: number[][]) =>
    new Response(JSON.stringify({ data: vectors.map((embedding, index) => ({ embedding, index })).reverse() }), { status: 200 });

  it("posts batches with the model and bearer key, and orders vectors by index", async () => {
    const calls: { url: string; body: { model: string; input: string[] }; auth: string | null }[] = [];
    const provider = new OpenAiCompatibleEmbeddings({
      baseUrl: "http://llm.test/v1/",
      apiKey: "sk-test",
      model: "nomic-embed-text",
      batchSize: 2,
      fetch: async (url, init) => {
        const body = JSON.parse(String(init!.body)) as { model: string; input: string[] };
        calls.push({ url: String(url), body, auth: new Headers(init!.headers).get("authorization") });
        return answer(body.input.map((t) => [t.length, 1]));
      },
    });
    const vectors = await provider.embed(["a", "bb", "ccc"]);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3]);
    expect(calls.map((c) => c.body.input)).toEqual([["a", "bb"], ["ccc"]]);
    expect(calls[0]).toMatchObject({ url: "http://llm.test/v1/embeddings", auth: "Bearer sk-test", body: { model: "nomic-embed-text" } });
    expect(provider.dimensions).toBe(2);
  });

  it("fails clearly on an HTTP error, a malformed answer or a timeout", async () => {
    const failing = (response: () => Promise<Response>) =>
      new OpenAiCompatibleEmbeddings({ baseUrl: "http://llm.test", model: "m", timeoutMs: 20, fetch: response });
    await expect(failing(async () => new Response("nope", { status: 401 })).embed(["x"])).rejects.toThrow(/HTTP 401: nope/);
    await expect(failing(async () => new Response('{"data": 3}')).embed(["x"])).rejects.toBeInstanceOf(EmbeddingError);
    const hang = failing(
      (_input?: unknown, init?: RequestInit) =>
        new Promise((_, reject) => init!.signal!.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    await expect(hang.embed(["x"])).rejects.toThrow(/timed out after 20 ms/);
  });
});

describe("WorkersAiEmbeddings and provider selection", () => {
  it("calls env.AI.run with the texts and parses the data", async () => {
    const runs: unknown[] = [];
    const ai = { run: async (model: string, input: unknown) => (runs.push([model, input]), { shape: [1, 2], data: [[0.5, 0.5]] }) };
    const provider = new WorkersAiEmbeddings(ai);
    expect(await provider.embed(["hello"])).toEqual([Float32Array.from([0.5, 0.5])]);
    expect(runs).toEqual([["@cf/baai/bge-m3", { text: ["hello"] }]]);
    await expect(new WorkersAiEmbeddings({ run: async () => ({}) }).embed(["x"])).rejects.toBeInstanceOf(EmbeddingError);
  });

  it("picks Workers AI, then an OpenAI-compatible endpoint, else none", () => {
    expect(embeddingProviderFromEnv({})).toBeNull();
    expect(embeddingProviderFromEnv({ LLM_BASE_URL: "http://x" })).toBeNull();
    expect(embeddingProviderFromEnv({ LLM_BASE_URL: "http://x", EMBEDDING_MODEL: "m" })).toBeInstanceOf(OpenAiCompatibleEmbeddings);
    expect(embeddingProviderFromEnv({ AI: { run: async () => ({}) }, LLM_BASE_URL: "http://x", EMBEDDING_MODEL: "m" })).toBeInstanceOf(
      WorkersAiEmbeddings,
    );
  });
});

describe("vector stores", () => {
  it("round-trips vectors through the D1 blob format", () => {
    const v = Float32Array.from([0.25, -1.5, 3]);
    const blob = vectorToBlob(v);
    expect(blobToVector(blob)).toEqual(v);
    expect(blobToVector(Array.from(new Uint8Array(blob)))).toEqual(v);
    expect(blobToVector(new Uint8Array(blob))).toEqual(v);
    expect(blobToVector(null)).toBeNull();
    expect(blobToVector(new Uint8Array(3))).toBeNull();
  });

  it("memory store: queries one assistant's vectors and deletes by file and assistant", async () => {
    const store = new MemoryVectorStore();
    await store.upsert("a1", [
      { chunkId: 1, fileId: "f1", vector: Float32Array.from([1, 0]) },
      { chunkId: 2, fileId: "f2", vector: Float32Array.from([0.6, 0.8]) },
    ]);
    await store.upsert("a2", [{ chunkId: 3, fileId: "f3", vector: Float32Array.from([1, 0]) }]);
    expect((await store.query("a1", Float32Array.from([1, 0]), 5)).map((m) => m.chunkId)).toEqual([1, 2]);
    await store.deleteByFile("a1", "f1");
    expect((await store.query("a1", Float32Array.from([1, 0]), 5)).map((m) => m.chunkId)).toEqual([2]);
    await store.deleteByAssistant("a1");
    expect(await store.query("a1", Float32Array.from([1, 0]), 5)).toEqual([]);
    expect(await store.query("a2", Float32Array.from([1, 0]), 5)).toHaveLength(1);
  });

  it("Vectorize store: namespaces by assistant and deletes by chunk ids in batches", async () => {
    const upserts: unknown[] = [];
    const deletes: string[][] = [];
    const queries: unknown[] = [];
    const index: VectorizeLike = {
      upsert: async (v) => upserts.push(...v),
      query: async (_v, options) => (queries.push(options), { matches: [{ id: "7", score: 0.9 }, { id: "x", score: 0.1 }] }),
      deleteByIds: async (ids) => deletes.push(ids),
    };
    const store = new VectorizeStore(index);
    await store.upsert("a1", [{ chunkId: 7, fileId: "f1", vector: Float32Array.from([1]) }]);
    expect(upserts).toEqual([{ id: "7", values: Float32Array.from([1]), namespace: "a1", metadata: { assistantId: "a1", fileId: "f1" } }]);
    expect(await store.query("a1", Float32Array.from([1]), 500)).toEqual([{ chunkId: 7, score: 0.9 }]);
    expect(queries).toEqual([{ topK: 50, namespace: "a1", returnMetadata: "none" }]);
    await store.deleteByFile("a1", "f1", Array.from({ length: 1500 }, (_, i) => i));
    expect(deletes.map((d) => d.length)).toEqual([1000, 500]);
  });

  it("Vectorize store with scoped ids: assistantId:chunkId, legacy bare ids still read and deleted", async () => {
    const upserts: { id: string }[] = [];
    const deletes: string[][] = [];
    const index: VectorizeLike = {
      upsert: async (v) => upserts.push(...v),
      query: async () => ({ matches: [{ id: "a1:7", score: 0.9 }, { id: "12", score: 0.5 }, { id: "a1:x", score: 0.1 }] }),
      deleteByIds: async (ids) => deletes.push(ids),
    };
    const store = new VectorizeStore(index, { scopedIds: true });
    await store.upsert("a1", [{ chunkId: 7, fileId: "f1", vector: Float32Array.from([1]) }]);
    expect(upserts.map((u) => u.id)).toEqual(["a1:7"]);
    expect(await store.query("a1", Float32Array.from([1]), 5)).toEqual([
      { chunkId: 7, score: 0.9 },
      { chunkId: 12, score: 0.5 },
    ]);
    await store.deleteByAssistant("a1", [7, 12], 12);
    expect(deletes).toEqual([["a1:7", "7", "a1:12", "12"]]);
  });

  it("Vectorize store with scoped ids deletes a bare id only for chunks the legacy move brought (ids restart at 1 in every assistant)", async () => {
    const deletes: string[][] = [];
    const index: VectorizeLike = { upsert: async () => {}, query: async () => ({ matches: [] }), deleteByIds: async (ids) => deletes.push(ids) };
    const store = new VectorizeStore(index, { scopedIds: true });
    // An assistant with no legacy knowledge: chunk 1 is its own; bare "1" is another assistant's legacy vector.
    await store.deleteByFile("a2", "f1", [1, 2]);
    await store.deleteByAssistant("a2", [1, 2], 0);
    // An assistant whose legacy chunks 40..41 were moved, then chunk 42 was added in its object.
    await store.deleteByAssistant("a3", [40, 41, 42], 41);
    expect(deletes).toEqual([["a2:1", "a2:2"], ["a2:1", "a2:2"], ["a3:40", "40", "a3:41", "41", "a3:42"]]);
  });

  it("memory store keeps assistants apart when their chunk ids are equal", async () => {
    const store = new MemoryVectorStore();
    await store.upsert("a1", [{ chunkId: 1, fileId: "f1", vector: Float32Array.from([1, 0]) }]);
    await store.upsert("a2", [{ chunkId: 1, fileId: "f2", vector: Float32Array.from([0, 1]) }]);
    expect(await store.query("a1", Float32Array.from([1, 0]), 5)).toEqual([{ chunkId: 1, score: 1 }]);
    expect(await store.query("a2", Float32Array.from([0, 1]), 5)).toEqual([{ chunkId: 1, score: 1 }]);
  });
});
