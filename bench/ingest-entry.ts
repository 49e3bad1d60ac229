// The code under measurement (sniff → extract → chunk) and the fixture builders, bundled by
// bench/ingest.mjs into one ES module for Node, resolved the way a Worker bundle is (browser fields).
export { sniffFile } from "../worker/knowledge/sniff";
export { extractFile } from "../worker/knowledge/extract";
export { chunkBlocks, drainBlocks } from "../worker/knowledge/chunk";
export { makeDoc, makeDocx, makePdf, makeWorkbook } from "../tests/fixtures/knowledge-files";
