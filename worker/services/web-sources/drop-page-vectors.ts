import type { RemovedFile } from "../../assistant/web-source-store";
import type { VectorStore } from "../../knowledge";

/**
 * Deletes the vectors of web pages the assistant's object already removed (their chunks are gone:
 * search ignores a vector whose chunk is missing, so a failure is only logged).
 */
export async function dropPageVectors(vectors: VectorStore, assistantId: string, files: readonly RemovedFile[]) {
  for (const file of files) {
    try {
      await vectors.deleteByFile(assistantId, file.fileId, file.chunkIds);
    } catch (error) {
      console.error(JSON.stringify({ event: "web-page-vectors-not-deleted", assistantId, fileId: file.fileId, error: String(error) }));
    }
  }
}
