import type { Env } from "../../env";
import type { IngestQueueMessage } from "../../queues/messages";
import { embeddingProviderFromEnv } from "../../knowledge";


/**
 * Queues the files for embedding when an embedder is configured; does nothing otherwise
 * (lexical search needs no embeddings). A queue failure is logged, not raised: the files are
 * stored and searchable already, only the vector half of hybrid search waits for them.
 */
export async function enqueueEmbeddings(env: Env, assistantId: string, fileIds: string[]): Promise<boolean> {
  if (!fileIds.length || !env.INGEST_QUEUE || !embeddingProviderFromEnv(env)) return false;
  try {
    await env.INGEST_QUEUE.sendBatch(fileIds.map((fileId) => ({ body: { assistantId, fileId } satisfies IngestQueueMessage })));
    return true;
  } catch (error) {
    console.error(JSON.stringify({ assistantId, fileIds, error: `could not queue embeddings: ${String(error)}` }));
    return false;
  }
}
