import { RpcTarget } from "cloudflare:workers";
import { qaLimits, type FeedbackRating, type InsightQuestion, type InsightsResponse, type QaStrictness } from "../../../contract";
import { BotDefenceStore } from "../bot-defence-store";
import type { Gone } from "../gone";
import type { HubCore } from "../hub-core";
import { InsightsStore } from "../insights-store";
import { guarded, whenOpen } from "./run";
import { visitorCheck, type IdentityRefusal } from "./visitors";

/** `rate`'s answer: a sentinel, never a throw (the feedback route maps it to its status). */
export type RateAnswerResult =
  | { ok: true; messageId: string; rating: FeedbackRating }
  | { ok: false; reason: "no-session" | "not-found" | "not-answer" | "failed" }
  | IdentityRefusal;

/**
 * `hub.insights()`: visitors' ratings of answers, and the owner's insights (insights-store.ts,
 * counted inside `beginTurn`). Never throws: a storage error is answered `failed` (the route
 * answers a retryable 503); `gone` once the assistant was deleted.
 */
export class InsightsFacet extends RpcTarget {
  readonly #core: HubCore;

  constructor(core: HubCore) {
    super();
    this.#core = core;
  }

  /**
   * A visitor rates an answer of their open session (the caller authorised the key). The last
   * rating wins. `not-found`: no such message in this session; `not-answer`: the visitor's own
   * message. A verified visitor's answers are rated only with that visitor's token.
   */
  async rate(input: { sessionId: string; messageId: string; rating: FeedbackRating; visitorToken?: string | undefined }): Promise<RateAnswerResult | Gone> {
    const checked = await whenOpen(this.#core, async ({ store }) => {
      const row = store.openSession(input.sessionId);
      return row ? await visitorCheck(this.#core, row, input.visitorToken) : null;
    });
    if (checked) return checked;
    return guarded(this.#core, "rateAnswer", async ({ store }): Promise<RateAnswerResult> => {
      if (!store.openSession(input.sessionId)) return { ok: false, reason: "no-session" };
      const at = Date.now();
      const outcome = new InsightsStore(this.#core.storage).rate({ sessionId: input.sessionId, messageId: input.messageId, rating: input.rating, at });
      if (outcome !== "rated") return { ok: false, reason: outcome };
      await this.#core.webhooks.record("feedback.created", { sessionId: input.sessionId, messageId: input.messageId, rating: input.rating, createdAt: at }, at);
      return { ok: true, messageId: input.messageId, rating: input.rating };
    });
  }

  /** The owner's insights over the last `days` UTC days (the caller checked ownership in D1). */
  read(days: number): Promise<{ ok: true; insights: InsightsResponse } | { ok: false; reason: "failed" } | Gone> {
    return guarded(this.#core, "insights", (opened) => {
      const required = opened.assistant.record.config.botDefence === "always";
      const insights = new InsightsStore(this.#core.storage).insights(days);
      const gaps = resolvedGaps(this.#core, insights.gaps, opened.assistant.record.config.qaStrictness ?? qaLimits.defaultStrictness);
      return { ok: true as const, insights: { ...insights, gaps, defence: { ...new BotDefenceStore(this.#core.storage).totals(insights.days), required } } };
    });
  }
}

/** Each gap a saved curated answer now matches at the assistant's strictness carries that pair's id (`resolvedBy`). */
function resolvedGaps(core: HubCore, gaps: InsightQuestion[], strictness: QaStrictness): InsightQuestion[] {
  const index = core.qa.index(core.storage);
  if (!index.size) return gaps;
  return gaps.map((gap) => {
    const { used } = index.match(gap.question, strictness);
    return used ? { ...gap, resolvedBy: used.qaId } : gap;
  });
}
