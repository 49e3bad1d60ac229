// The retrieval bench's lexical index: the assistant's own knowledge store (the hub's SQLite
// schema and FTS5 BM25, worker/assistant/knowledge-store.ts) in a Durable Object under Miniflare,
// one object per labelled set. Bundled by bench/retrieval.mjs; nothing here ships.
import { DurableObject } from "cloudflare:workers";
import { KnowledgeStore } from "../../worker/assistant/knowledge-store";
import { migrateAssistantStorage } from "../../worker/assistant/storage-migrations";
import type { ChunkInsert } from "../../worker/knowledge/knowledge-index";

type Op =
  | { op: "load"; files: { id: string; name: string; rows: ChunkInsert[] }[] }
  | { op: "lexical"; match: string; k: number }
  | { op: "all" };

export class BenchIndex extends DurableObject {
  readonly store: KnowledgeStore;
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    migrateAssistantStorage(ctx.storage);
    this.store = new KnowledgeStore(ctx.storage);
  }

  override async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as Op;
    if (body.op === "load") {
      for (const file of body.files) {
        this.store.addFile({ id: file.id, name: file.name, size: 1, mimeType: "text/markdown", r2Key: file.id, uploadedAt: 1, kind: "file" });
        this.store.insertChunks(file.id, file.rows, 1);
        this.store.markReady(file.id, file.rows.length);
      }
      return Response.json({ chunks: this.store.chunkIds(null).length });
    }
    if (body.op === "lexical") return Response.json(this.store.lexical(body.match, body.k));
    return Response.json(this.store.chunks(this.store.chunkIds(null)));
  }
}

export default {
  fetch(request: Request, env: { INDEX: DurableObjectNamespace }) {
    const set = new URL(request.url).searchParams.get("set") ?? "default";
    return env.INDEX.get(env.INDEX.idFromName(set)).fetch(request);
  },
};
