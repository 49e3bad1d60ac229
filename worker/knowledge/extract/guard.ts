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
 * work budget (`maxSteps`, counted by the same ticks) and the size caps (every loop linear in the
 * input, every buffer capped).
 */
export class ExtractGuard {
  private readonly deadline: number;
  private ticks = 0;
  inflated = 0;

  /**
   * `fileBytes`: the size of the file, from which its work budget is derived
   * (`extractStepsBase` + `extractStepsPerByte` × (file + inflated bytes)).
   */
  constructor(
    readonly name: string,
    private readonly budgetMs: number = knowledgeLimits.maxExtractMs,
    private readonly maxInflated: number = knowledgeLimits.maxOfficeXmlBytes,
    private readonly fileBytes = 0,
    private readonly stepsBase: number = knowledgeLimits.extractStepsBase,
  ) {
    this.deadline = Date.now() + budgetMs;
  }

  /** Steps this file may take: generous and linear in what was read. */
  get maxSteps(): number {
    return this.stepsBase + knowledgeLimits.extractStepsPerByte * (this.fileBytes + this.inflated);
  }

  get steps(): number {
    return this.ticks;
  }

  /**
   * Counts one unit of work (`count` for a batch); every few thousand, fails the file past its
   * work budget (what bounds a synchronous reader in workerd, whose clock stands still) or its
   * wall-clock deadline (Node).
   */
  tick(count = 1): void {
    const before = this.ticks;
    this.ticks += count;
    if (Math.floor(this.ticks / TICKS_PER_CHECK) !== Math.floor(before / TICKS_PER_CHECK)) this.checkTime();
  }

  checkTime(): void {
    if (this.ticks > this.maxSteps) throw this.fail(knowledgeMessages.tooMuchWork(this.name));
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

  /**
   * A library's RangeError as the cap it hit, or null for other errors: a stack overflow is markup
   * nested too deep for a recursive parser (never "damaged"), an invalid string or array length is
   * content too large to process.
   */
  fromRangeError(error: unknown): KnowledgeError | null {
    if (!(error instanceof RangeError)) return null;
    if (/call stack|too much recursion/i.test(error.message)) return new KnowledgeError("too_complex", knowledgeMessages.nestedTooDeep(this.name, knowledgeLimits.maxNestingDepth), { cause: error });
    return new KnowledgeError("too_complex", knowledgeMessages.tooComplex(this.name), { cause: error });
  }

  private fail(message: string): KnowledgeError {
    return new KnowledgeError("too_complex", message);
  }
}
