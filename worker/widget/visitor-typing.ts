import { handoffLimits } from "../../contract";

/**
 * The visitor's `typing` frames a room passes on to the owner: one per
 * handoffLimits.typingSendMs, and a stop (`false`) right after a start, so the owner's
 * indicator goes off at once rather than at its time limit; the rest are dropped. So a socket that
 * sends typing frames in a loop costs the assistant's object at most two calls per period.
 * In the room's memory (one per visitor session). No import from `cloudflare:workers`.
 */
export class TypingThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastTyping = false;

  constructor(
    private readonly everyMs: number = handoffLimits.typingSendMs,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this frame goes on (and it is counted when it does). */
  take(typing: boolean): boolean {
    const at = this.now();
    const stopping = !typing && this.lastTyping;
    if (!stopping && at - this.lastAt < this.everyMs) return false;
    this.lastAt = at;
    this.lastTyping = typing;
    return true;
  }
}
