import { knowledgeLimits, knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";

/** "1 MB", "200 MB": a byte limit as an owner reads it. */
export const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Loop iterations between two clock reads: Date.now() is cheap, not free. */
const TICKS_PER_CHECK = 4096;

/**
 * The hostile-input fence of one file's extraction: the wall-clock deadline (`maxExtractMs`) and
 * the bytes inflated from its zip (`maxOfficeXmlBytes`, counted as they come out of the inflater),
 * plus the errors of every cap, each naming its limit. Every reader loop calls `tick()`, so no
 * input can keep a reader busy past the deadline.
 *
 * In workerd the clock only moves across I/O (a Spectre mitigation), so there the deadline fires
 * at the awaits of the streaming readers and PDF pages; the synchronous readers are bounded by the
 * size caps instead (every loop is linear in the input, every buffer capped), and a deployed
 * Worker by its CPU limit.
 */
export class ExtractGuard {
  private readonly deadline: number;
  private ticks = 0;
  inflated = 0;

  constructor(
    readonly name: string,
    private readonly budgetMs: number = knowledgeLimits.maxExtractMs,
    private readonly maxInflated: number = knowledgeLimits.maxOfficeXmlBytes,
  ) {
    this.deadline = Date.now() + budgetMs;
  }

  /** Counts one unit of work; every few thousand, fails the file if its deadline has passed. */
  tick(): void {
    if (++this.ticks % TICKS_PER_CHECK === 0) this.checkTime();
  }

  checkTime(): void {
    if (Date.now() > this.deadline) throw this.fail(knowledgeMessages.tookTooLong(this.name, Math.round(this.budgetMs / 1000)));
  }

  /** Counts `bytes` just inflated; past the file's allowance it fails (a zip bomb, lying or not). */
  inflate(bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.maxInflated) throw this.fail(knowledgeMessages.inflatesTooLarge(this.name, megabytes(this.maxInflated)));
  }

  lineTooLong(): KnowledgeError {
    return this.fail(knowledgeMessages.lineTooLong(this.name, megabytes(knowledgeLimits.maxLineChars)));
  }

  tooManyCells(): KnowledgeError {
    return this.fail(knowledgeMessages.tooManyCells(this.name, knowledgeLimits.maxCellsPerRow));
  }

  nestedTooDeep(): KnowledgeError {
    return this.fail(knowledgeMessages.nestedTooDeep(this.name, knowledgeLimits.maxNestingDepth));
  }

  tooManyElements(): KnowledgeError {
    return this.fail(knowledgeMessages.tooManyElements(this.name, knowledgeLimits.maxXmlElements));
  }

  private fail(message: string): KnowledgeError {
    return new KnowledgeError("too_complex", message);
  }
}
