import { isGone, unlessGone } from "../../worker/assistant/gone";
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatHistoryResponse, publicAssistantListResponse, publicAssistantResponse, widgetSessionResponse } from "../../contract";
import { hashApiKey } from "../../worker/crypto/api-key";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { hubKnowledgeIndex } from "../../worker/assistant/hub-knowledge-index";
import { importLegacyKnowledge } from "../../worker/assistant/legacy-import";
import { migrateAssistantStorage } from "../../worker/assistant/storage-migrations";
import { deleteAssistantKnowledge, deleteFileKnowledge } from "../../worker/knowledge";
import { VectorizeStore, type VectorizeLike } from "../../worker/knowledge/vectors";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { call, json } from "./helpers";
import { hubRows, seedLegacyVisitorSession } from "./public-assistants-helpers";
import { createSecretKey } from "./secret-keys-helpers";
import { widgetAssistant, widgetCall } from "./widget-helpers";

/**
 * The move of an assistant's visitor history from D1 into its own Durable Object (AssistantHub):
 * rows written by the version before the move are copied on the object's first use, once,
 * then deleted from D1; the counters carry over.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The object as if it predated the move: its `imported` marker removed. */
async function forgetMove(assistantId: string) {
  const hub = getAssistantHub(env, assistantId);
  await runInDurableObject(hub, async (instance, state) => {
    await (instance as unknown as AssistantHub).history().count();
    state.storage.sql.exec("DELETE FROM meta WHERE key = 'imported'");
  });
}

const d1Count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${sql}`).bind(...binds).first<{ n: number }>())!.n;

describe("the move of legacy D1 rows into the assistant's own object", () => {
  it("copies every session and message once, paged, carries the counters, and empties D1", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await forgetMove(assistantId);
    // More sessions than one page of the move (50), each with a question and an answer.
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      ids.push(
        await seedLegacyVisitorSession(assistantId, {
          startedAt: Date.now() - 1000 + i,
          messages: [
            { role: "user", text: `question ${i}` },
            { role: "assistant", text: `answer ${i}`, sources: [{ fileId: "f1", name: "faq.md", excerpt: "…" }] },
          ],
        }),
      );
    }
    // Today's messages counted by the legacy RateLimiter (the daily counter before the move).
    const now = Date.now();
    const daily = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`widget-daily:${assistantId}`));
    for (let i = 0; i < 3; i++) await daily.consume(assistant.config.dailyLimit, 1, now - (now % DAY_MS) + DAY_MS);
    expect(await d1Count("visitor_sessions WHERE assistant_id = ?1", assistantId)).toBe(53);

    const res = await call(`/api/public-assistants/${assistantId}/chats?page=1&limit=50`, { token });
    expect(res.status).toBe(200);
    const history = await json(res, chatHistoryResponse);
    expect(history.total).toBe(53);
    const rest = await json(await call(`/api/public-assistants/${assistantId}/chats?page=2&limit=50`, { token }), chatHistoryResponse);
    const sessions = [...history.sessions, ...rest.sessions];
    expect(new Set(sessions.map((s) => s.sessionId))).toEqual(new Set(ids));
    const first = sessions.find((s) => s.sessionId === ids[0])!;
    expect(first.messageCount).toBe(2);
    expect(first.messages.map((m) => m.content.data)).toEqual(["question 0", "answer 0"]);
    expect(first.messages[1]!.sources).toEqual([{ fileId: "f1", name: "faq.md", excerpt: "…" }]);

    // D1 no longer holds them.
    expect(await d1Count("visitor_sessions WHERE assistant_id = ?1", assistantId)).toBe(0);
    expect(await d1Count("visitor_messages WHERE session_id IN (" + ids.map(() => "?").join(",") + ")", ...ids)).toBe(0);

    // Counters: the session's (one visitor message) and today's (three) carried over.
    const session = await json(await widgetCall(`/api/widget/sessions/${ids[0]}`, { key }), widgetSessionResponse);
    expect(session.remaining).toEqual({ session: assistant.config.maxMessagesPerSession - 1, daily: assistant.config.dailyLimit - 3 });
    expect(session.messages).toHaveLength(2);
  });

  it("is idempotent: an interrupted move (rows copied, not yet deleted from D1) never duplicates", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await forgetMove(assistantId);
    const id = await seedLegacyVisitorSession(assistantId, { messages: [{ role: "user", text: "hello" }] });
    expect((await json(await call(`/api/public-assistants/${assistantId}/chats?page=1&limit=10`, { token }), chatHistoryResponse)).total).toBe(1);

    // The same rows again in D1, as if the delete after the copy had not happened, and no marker.
    await forgetMove(assistantId);
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO visitor_sessions (id, assistant_id, referrer, origin, user_agent, locale, message_count, started_at) VALUES (?1, ?2, '', '', '', '', 1, ?3)",
      ).bind(id, assistantId, Date.now()),
    ]);
    const again = await json(await call(`/api/public-assistants/${assistantId}/chats?page=1&limit=10`, { token }), chatHistoryResponse);
    expect(again.total).toBe(1);
    expect(again.sessions[0]!.messages.map((m) => m.content.data)).toEqual(["hello"]);
    expect(await d1Count("visitor_sessions WHERE assistant_id = ?1", assistantId)).toBe(0);
  });

  it("counts the assistant's day exactly under concurrency (widget and /v1 share it)", async () => {
    const { assistant, token } = await widgetAssistant({ config: { dailyLimit: 10 } }, { upload: false });
    const hub = getAssistantHub(env, assistant._id);
    const keyHash = await hashApiKey((await createSecretKey(token, assistant._id)).key);
    const results = await Promise.all(Array.from({ length: 16 }, () => hub.admitApiCall({ keyHash, origin: "" })));
    expect(results.filter((r) => !isGone(r) && r.ok)).toHaveLength(10);
  });

  it("a copy told of an owner's write re-reads D1 until refreshed, so a failed refresh never accepts a revoked key", async () => {
    const { assistant, key } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    const { sessionId } = await json(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetSessionResponse);
    const hub = getAssistantHub(env, assistantId);
    const keyHash = await hashApiKey(key);
    const turn = () => hub.beginTurn({ keyHash, origin: "", sessionId, ip: "203.0.113.9", message: { content: "hi", files: [] } });
    expect((await turn()).outcome).toBe("admitted");
    // The owner's write: the hub is told first, D1 changes, and the refresh after it never comes.
    const token = await hub.configChanging();
    await env.DB.prepare("UPDATE public_assistants SET api_key_hash = ?1 WHERE id = ?2").bind("0".repeat(64), assistantId).run();
    expect(await turn()).toEqual({ outcome: "denied", denied: "unavailable" });
    // Refreshed: the copy holds the new key hash and is trusted again.
    await hub.configChanged({ token });
    expect(await turn()).toEqual({ outcome: "denied", denied: "unavailable" });
  });

  it("moves legacy knowledge (file records, chunks with their vectors) and indexes it in the object's FTS5", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await forgetMove(assistantId);
    const fileId = crypto.randomUUID();
    const blob = new Uint8Array(new Float32Array([0.5, 0.5]).buffer);
    // As the version before the move wrote them: D1 rows (D1's own FTS5 triggers index them there).
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO knowledge_files (id, assistant_id, name, size, mime_type, r2_key, status, chunk_count, uploaded_at) VALUES (?1, ?2, 'legacy.md', 10, 'text/markdown', ?3, 'ready', 2, ?4)",
      ).bind(fileId, assistantId, `assistants/${assistantId}/files/${fileId}/legacy.md`, Date.now()),
      env.DB.prepare(
        "INSERT INTO knowledge_chunks (file_id, assistant_id, ordinal, heading, content, token_count, embedding, created_at) VALUES (?1, ?2, 0, 'Legacy', 'The quokka policy covers marsupials.', 8, ?3, ?4)",
      ).bind(fileId, assistantId, blob, Date.now()),
      env.DB.prepare(
        "INSERT INTO knowledge_chunks (file_id, assistant_id, ordinal, heading, content, token_count, created_at) VALUES (?1, ?2, 1, 'Legacy', 'Wombats are not covered.', 6, ?3)",
      ).bind(fileId, assistantId, Date.now()),
    ]);
    const legacyIds = (await env.DB.prepare("SELECT id FROM knowledge_chunks WHERE file_id = ?1 ORDER BY id").bind(fileId).all<{ id: number }>()).results.map((r) => r.id);

    const res = await call(`/api/public-assistants/${assistantId}/search?q=quokka`, { token });
    expect(res.status).toBe(200);
    const found = (await res.json()) as { results: { fileId: string; fileName: string }[] };
    expect(found.results[0]).toMatchObject({ fileId, fileName: "legacy.md" });
    const card = await json(await call(`/api/public-assistants/${assistantId}`, { token }), publicAssistantResponse);
    expect(card.assistant.files).toMatchObject([{ _id: fileId, chunkCount: 2 }]);

    // D1 no longer holds them; the object does, with the same chunk ids (Vectorize names vectors by them) and the vector.
    expect(await d1Count("knowledge_files WHERE assistant_id = ?1", assistantId)).toBe(0);
    expect(await d1Count("knowledge_chunks WHERE assistant_id = ?1", assistantId)).toBe(0);
    const moved = await hubRows(assistantId, "SELECT id, embedding IS NOT NULL AS embedded FROM knowledge_chunks ORDER BY id");
    expect(moved.map((r) => Number(r.id))).toEqual(legacyIds);
    expect(moved.map((r) => Number(r.embedded))).toEqual([1, 0]);
  });

  it("deletes a bare (legacy) Vectorize id only for chunks the move brought: chunk ids restart at 1 in every assistant's object", async () => {
    const deleted: string[] = [];
    const vectorize: VectorizeLike = { upsert: async () => ({}), query: async () => ({ matches: [] }), deleteByIds: async (ids) => void deleted.push(...ids) };
    const vectors = new VectorizeStore(vectorize, { scopedIds: true });

    // A new assistant (no legacy knowledge): its chunks are 1, 2…; the bare "1" is another tenant's legacy vector.
    const fresh = await widgetAssistant({}, {});
    const freshIndex = hubKnowledgeIndex(env, fresh.assistant._id);
    const freshIds = await freshIndex.chunkIds(null);
    expect(freshIds[0]).toBe(1);
    expect(await freshIndex.legacyChunkIdMax()).toBe(0);
    const [file] = await getAssistantHub(env, fresh.assistant._id).knowledge().files().then((f) => unlessGone(f, []));
    await deleteFileKnowledge({ index: freshIndex, assistantId: fresh.assistant._id, fileId: file!.id, vectors });
    await deleteAssistantKnowledge({ index: freshIndex, assistantId: fresh.assistant._id, vectors });
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.every((id) => id.startsWith(`${fresh.assistant._id}:`))).toBe(true);

    // An assistant that moved legacy chunks, then got a new one: bare ids for the moved ones only.
    deleted.length = 0;
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await forgetMove(assistantId);
    const fileId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO knowledge_files (id, assistant_id, name, size, mime_type, r2_key, status, chunk_count, uploaded_at) VALUES (?1, ?2, 'legacy.md', 10, 'text/markdown', 'k', 'ready', 2, ?3)",
      ).bind(fileId, assistantId, Date.now()),
      ...[0, 1].map((i) =>
        env.DB.prepare("INSERT INTO knowledge_chunks (file_id, assistant_id, ordinal, heading, content, token_count, created_at) VALUES (?1, ?2, ?3, 'h', 'c', 1, ?4)").bind(
          fileId,
          assistantId,
          i,
          Date.now(),
        ),
      ),
    ]);
    const legacyIds = (await env.DB.prepare("SELECT id FROM knowledge_chunks WHERE file_id = ?1 ORDER BY id").bind(fileId).all<{ id: number }>()).results.map((r) => r.id);
    expect((await call(`/api/public-assistants/${assistantId}`, { token })).status).toBe(200); // the move
    const index = hubKnowledgeIndex(env, assistantId);
    expect(await index.legacyChunkIdMax()).toBe(legacyIds[1]);
    await index.insertChunks(fileId, [[2, "h", "new", 1]], Date.now());
    const ids = await index.chunkIds(fileId);
    expect(ids).toEqual([...legacyIds, legacyIds[1]! + 1]);
    await deleteFileKnowledge({ index, assistantId, fileId, vectors });
    expect(deleted).toEqual([`${assistantId}:${ids[0]}`, String(ids[0]), `${assistantId}:${ids[1]}`, String(ids[1]), `${assistantId}:${ids[2]}`]);
  });

  it("a large legacy knowledge move that fails part-way keeps what it moved, and the next call resumes with no duplicate and nothing lost", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await forgetMove(assistantId);
    const fileId = crypto.randomUUID();
    const seed = [
      env.DB.prepare(
        "INSERT INTO knowledge_files (id, assistant_id, name, size, mime_type, r2_key, status, chunk_count, uploaded_at) VALUES (?1, ?2, 'big.md', 10, 'text/markdown', 'k', 'ready', 450, ?3)",
      ).bind(fileId, assistantId, Date.now()),
    ];
    for (let i = 0; i < 450; i++) {
      seed.push(
        env.DB.prepare("INSERT INTO knowledge_chunks (file_id, assistant_id, ordinal, heading, content, token_count, created_at) VALUES (?1, ?2, ?3, 'h', ?4, 1, ?5)").bind(
          fileId,
          assistantId,
          i,
          `chunk ${i}`,
          Date.now(),
        ),
      );
    }
    await env.DB.batch(seed);
    const legacyIds = (await env.DB.prepare("SELECT id FROM knowledge_chunks WHERE assistant_id = ?1 ORDER BY id").bind(assistantId).all<{ id: number }>()).results.map((r) => r.id);

    // D1 fails once mid-way: the second page is copied into the object, then its delete from D1 throws.
    let deletes = 0;
    const flaky = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare") {
          return (sql: string) => {
            if (/^DELETE FROM knowledge_chunks/.test(sql) && ++deletes === 2) throw new Error("D1 went away");
            return target.prepare(sql);
          };
        }
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const hub = getAssistantHub(env, assistantId);
    const failure = await runInDurableObject(hub, async (_instance, state) => {
      migrateAssistantStorage(state.storage);
      return importLegacyKnowledge(flaky, state.storage, assistantId).then(
        () => null,
        (error: unknown) => String(error),
      );
    });
    expect(failure).toMatch(/D1 went away/);
    // Progress kept: the first page left D1; the file record stays there until its chunks are all moved.
    expect(await d1Count("knowledge_chunks WHERE assistant_id = ?1", assistantId)).toBe(250);
    expect(await d1Count("knowledge_files WHERE assistant_id = ?1", assistantId)).toBe(1);
    expect(await hubRows(assistantId, "SELECT count(*) AS n FROM knowledge_chunks")).toEqual([{ n: 400 }]);

    // The owner's next call resumes the move (the object has no `imported` marker yet).
    const card = await json(await call(`/api/public-assistants/${assistantId}`, { token }), publicAssistantResponse);
    expect(card.assistant.files).toMatchObject([{ _id: fileId, chunkCount: 450 }]);
    expect(await d1Count("knowledge_chunks WHERE assistant_id = ?1", assistantId)).toBe(0);
    expect(await d1Count("knowledge_files WHERE assistant_id = ?1", assistantId)).toBe(0);
    const moved = await hubRows(assistantId, "SELECT id FROM knowledge_chunks ORDER BY id");
    expect(moved.map((r) => Number(r.id))).toEqual(legacyIds);
    expect(await hubRows(assistantId, "SELECT count(*) AS n FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH 'chunk'")).toEqual([{ n: 450 }]);
    expect(await hubRows(assistantId, "SELECT value FROM meta WHERE key = 'legacy_max_chunk_id'")).toEqual([{ value: String(legacyIds[449]) }]);
  });

  it("concurrent first calls share one legacy move", async () => {
    const { assistant } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await forgetMove(assistantId);
    const ids = await Promise.all([0, 1, 2].map((i) => seedLegacyVisitorSession(assistantId, { messages: [{ role: "user", text: `q${i}` }] })));
    const hub = getAssistantHub(env, assistantId);
    const counts = await Promise.all([hub.history().count(), hub.history().count(), hub.history().cardStats()]);
    expect(counts).toEqual([3, 3, { files: [], sessions: 3 }]);
    expect(await hubRows(assistantId, "SELECT count(*) AS n FROM visitor_sessions")).toEqual([{ n: ids.length }]);
  });

  it("one assistant whose object fails costs its card its stats, not the owner's list", async () => {
    const { token, assistant: broken } = await widgetAssistant({}, { upload: false });
    const healthy = (await json(await call("/api/public-assistants", { token, json: { name: "Healthy" } }), publicAssistantResponse)).assistant;
    await getAssistantHub(env, broken._id).history().count();
    await runInDurableObject(getAssistantHub(env, broken._id), (_instance, state) => {
      state.storage.sql.exec("ALTER TABLE knowledge_files RENAME TO knowledge_files_broken");
    });
    const res = await call("/api/public-assistants", { token });
    expect(res.status).toBe(200);
    const { assistants } = await json(res, publicAssistantListResponse);
    expect(assistants.find((a) => a._id === broken._id)).toMatchObject({ files: [], stats: { totalSessions: 0, unavailable: true } });
    expect(assistants.find((a) => a._id === healthy._id)?.stats).toEqual({ totalSessions: 0 });
  });
});
