import { knowledgeLimits } from "../../contract";
import { eachSentence, splitLong, type Piece } from "./sentences";
import { estimateTokens } from "./tokens";
import type { Block } from "./types";

/** One passage to store and index: `heading` is the heading path joined with " > ". */
export interface Chunk {
  ordinal: number;
  heading: string;
  headingPath: string[];
  content: string;
  tokenCount: number;
}

export interface ChunkOptions {
  targetTokens: number;
  maxTokens: number;
  overlapRatio: number;
  maxChunks: number;
}

export interface ChunkResult {
  chunks: Chunk[];
  /** True when `maxChunks` stopped the chunker before the end of the blocks. */
  truncated: boolean;
}

export const defaultChunkOptions: ChunkOptions = {
  targetTokens: knowledgeLimits.chunkTargetTokens,
  maxTokens: knowledgeLimits.chunkMaxTokens,
  overlapRatio: knowledgeLimits.chunkOverlapRatio,
  maxChunks: knowledgeLimits.maxChunksPerFile,
};

interface Unit {
  text: string;
  tokens: number;
  /** Joins it to the previous unit: " " inside a paragraph, "\n" between paragraphs and rows. */
  joiner: string;
  isRow: boolean;
}

export const HEADING_SEPARATOR = " > ";

/**
 * Packs blocks into chunks of about `targetTokens` (never more than `maxTokens`):
 * - a heading closes the current chunk; every chunk carries the path of headings above it;
 * - paragraphs are split at sentence ends, and a sentence too long for a chunk at words
 *   (characters for a run with no spaces) into short pieces;
 * - a row is never split unless it alone exceeds the budget (then at "; " between cells);
 * - consecutive chunks of running text share ~`overlapRatio` of the target as whole trailing
 *   sentences (rows are records and do not overlap; nothing overlaps across headings).
 * Pure and deterministic.
 */
export function chunkBlocks(blocks: Iterable<Block>, options: Partial<ChunkOptions> = {}): ChunkResult {
  const { targetTokens, maxTokens, overlapRatio, maxChunks } = { ...defaultChunkOptions, ...options };
  const overlapBudget = Math.floor(targetTokens * overlapRatio);
  // A unit (sentence piece or row) is at most this big, so overlap + unit ≤ maxTokens.
  const unitBudget = Math.max(1, maxTokens - overlapBudget - 1);
  // Pieces of an over-long sentence stay small enough to serve as overlap.
  const pieceBudget = Math.max(1, Math.min(unitBudget, overlapBudget || unitBudget));

  const chunks: Chunk[] = [];
  const path: { level: number; text: string }[] = [];
  let units: Unit[] = [];
  let tokens = 0;
  /** Units at the head of `units` carried over from the previous chunk. */
  let carried = 0;
  let truncated = false;

  const emit = (withOverlap: boolean) => {
    if (units.length > carried) {
      if (chunks.length >= maxChunks) {
        truncated = true;
      } else {
        const content = units.map((u, i) => (i === 0 ? u.text : u.joiner + u.text)).join("");
        const headingPath = path.map((h) => h.text);
        chunks.push({
          ordinal: chunks.length,
          heading: headingPath.join(HEADING_SEPARATOR),
          headingPath,
          content,
          tokenCount: estimateTokens(content),
        });
      }
    }
    let keep: Unit[] = [];
    if (withOverlap) {
      let budget = overlapBudget;
      for (let i = units.length - 1; i >= 0; i--) {
        const unit = units[i]!;
        if (unit.isRow || unit.tokens + 1 > budget) break;
        budget -= unit.tokens + 1;
        keep = [unit, ...keep];
      }
    }
    units = keep;
    carried = keep.length;
    tokens = keep.reduce((sum, u) => sum + u.tokens + 1, 0);
  };

  const add = (unit: Unit) => {
    if (units.length > carried && tokens + unit.tokens + 1 > targetTokens) emit(!unit.isRow);
    if (tokens + unit.tokens + 1 > maxTokens) {
      // Only carried overlap can be in the way here: drop it rather than pass the maximum.
      units = [];
      carried = 0;
      tokens = 0;
    }
    units.push(unit);
    tokens += unit.tokens + 1;
  };

  const addPieces = (pieces: Iterable<Piece>, isRow: boolean, firstJoiner: string) => {
    let i = 0;
    for (const piece of pieces) {
      const joiner = i++ === 0 ? firstJoiner : piece.joiner;
      const pieceTokens = estimateTokens(piece.text);
      if (pieceTokens <= unitBudget) {
        add({ text: piece.text, tokens: pieceTokens, joiner, isRow });
        continue;
      }
      const parts = isRow ? splitRow(piece.text, unitBudget) : splitLong(piece.text, pieceBudget);
      parts.forEach((part, j) => add({ text: part.text, tokens: estimateTokens(part.text), joiner: j === 0 ? joiner : part.joiner, isRow }));
    }
  };

  for (const block of blocks) {
    if (truncated) break;
    if (block.kind === "heading") {
      emit(false);
      while (path.length && path[path.length - 1]!.level >= block.level) path.pop();
      path.push({ level: block.level, text: block.text });
      continue;
    }
    if (block.kind === "row") addPieces([{ text: block.text, joiner: "\n" }], true, "\n");
    else addPieces(eachSentence(block.text), false, "\n");
  }
  if (!truncated) emit(false);
  return { chunks, truncated };
}

/**
 * Yields the blocks and lets go of each one as it is consumed, so that while a large document is
 * being chunked its blocks and its chunks are not both held whole (ingest does this).
 */
export function* drainBlocks(blocks: (Block | undefined)[]): Generator<Block> {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    blocks[i] = undefined;
    if (block) yield block;
  }
  blocks.length = 0;
}

/** A row too big for one chunk: split between cells ("; "), and a huge cell at words. */
function splitRow(text: string, budget: number): Piece[] {
  const out: Piece[] = [];
  let current = "";
  let tokens = 0;
  for (const cell of text.split("; ")) {
    const cellTokens = estimateTokens(cell);
    if (current && tokens + cellTokens + 1 <= budget) {
      current += `; ${cell}`;
      tokens += cellTokens + 1;
      continue;
    }
    if (current) out.push({ text: current, joiner: "\n" });
    current = "";
    tokens = 0;
    if (cellTokens <= budget) {
      current = cell;
      tokens = cellTokens;
    } else {
      out.push(...splitLong(cell, budget, " ").map((p) => ({ text: p.text, joiner: "\n" })));
    }
  }
  if (current) out.push({ text: current, joiner: "\n" });
  return out;
}
