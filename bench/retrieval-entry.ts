// The code under measurement by bench/retrieval.mjs (Tala's chunker, search, fusion and floor)
// and the labelled sets, bundled into one ES module for Node.
export { knowledgeSearch, widget } from "../contract";
export { chunkBlocks, drainBlocks } from "../worker/knowledge/chunk";
export { BlockCollector } from "../worker/knowledge/extract/collector";
export { ExtractGuard } from "../worker/knowledge/extract/guard";
export { extractMarkdown } from "../worker/knowledge/extract/text";
export { hybridSearch, lexicalSearch } from "../worker/knowledge/search";
export { convexFusion, fusionProfileFor, weightedRankFusion } from "../worker/knowledge/fusion";
export { relevanceFloorFor, relevantHits } from "../worker/knowledge/relevance";
export { HashingEmbeddings } from "../worker/knowledge/embeddings";
export { MemoryVectorStore } from "../worker/knowledge/vectors";
export { evaluateRun, retrievalSets } from "../tests/fixtures/retrieval";
