/**
 * The knowledge-base engine of Public Assistants: what the API routes and the queue consumer call.
 * See README.md for the pipeline and its limits.
 */
export { checkNameAndSize, displayName, kindFromName, sniffFile, type SniffInput, type SniffedFile } from "./sniff";
export { extractFile } from "./extract";
export { chunkBlocks, defaultChunkOptions, type Chunk, type ChunkOptions, type ChunkResult } from "./chunk";
export { estimateTokens } from "./tokens";
export {
  hybridSearch,
  lexicalSearch,
  reciprocalRankFusion,
  toFtsQuery,
  type HybridSearchInput,
  type HybridSearchResult,
  type KnowledgeHit,
} from "./search";
export { contentTerms, relevanceFloorFor, relevantHits, stemOf, termCoverage, type RelevanceFloor } from "./relevance";
export { convexFusion, fusionProfileFor, listsDisagree, vectorWeightFor, weightedRankFusion, type FusionProfile } from "./fusion";
export {
  EmbeddingError,
  HashingEmbeddings,
  OpenAiCompatibleEmbeddings,
  WorkersAiEmbeddings,
  embeddingProviderFromEnv,
  type EmbeddingProvider,
  type WorkersAiBinding,
} from "./embeddings";
export { IndexVectorStore, MemoryVectorStore, VectorizeStore, type VectorMatch, type VectorRecord, type VectorStore, type VectorizeLike } from "./vectors";
export type { ChunkInsert, IndexedChunk, KnowledgeFileChanges, KnowledgeFileKind, KnowledgeFileRecord, KnowledgeFileStatus, KnowledgeIndex } from "./knowledge-index";
export { ingestText, knowledgeTextMimeType, reindexText, textChunks, type IngestTextInput, type ReindexTextResult } from "./ingest-text";
export {
  deleteAssistantKnowledge,
  deleteFileKnowledge,
  embedFileChunks,
  ingestBlocks,
  ingestFile,
  type DeleteKnowledgeResult,
  type IngestBlocksInput,
  type IngestInput,
  type IngestResult,
} from "./ingest";
export { KnowledgeError, isKnowledgeError, knowledgeErrorCodes, type KnowledgeErrorReason } from "./errors";
export { knowledgeKinds, type Block, type ExtractedDocument, type KnowledgeKind } from "./types";
