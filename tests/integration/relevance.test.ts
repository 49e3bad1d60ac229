import { isGone } from "../../worker/assistant/gone";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { offlineSources, retrievalQuery } from "../../worker/widget/prompt";
import { relevanceDocuments, relevanceQuestions } from "../fixtures/relevance-set";
import { registerUser } from "./helpers";
import { createAssistant, uploadFiles } from "./public-assistants-helpers";

// The sources a visitor is shown, measured on the labelled set of
// tests/fixtures/relevance-set.ts. Real retrieval in the assistant's own object (BM25 over its
// FTS5; no embeddings configured here, the default), then the sources the offline answer shows.

describe("relevance on the labelled set", () => {
  it("shows no wrong source and reports recall", async () => {
    const { token } = await registerUser();
    const assistant = await createAssistant(token, { name: "Zephyr shop" });
    const res = await uploadFiles(
      token,
      assistant._id,
      relevanceDocuments.map((d) => ({ name: d.name, bytes: d.text, type: "text/markdown" })),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const hub = getAssistantHub(env, assistant._id);

    const wrong: { question: string; source: string }[] = [];
    const missed: string[] = [];
    let answerable = 0;
    for (const { question, answeredBy } of relevanceQuestions) {
      const found = await hub.knowledge().retrieve({ query: retrievalQuery(question, []), question });
      if (isGone(found) || !found.passages) throw new Error(`retrieval failed for ${question}`);
      const shown = offlineSources(found.passages).map((s) => s.name);
      for (const source of shown) if (!answeredBy.includes(source)) wrong.push({ question, source });
      if (answeredBy.length) {
        answerable++;
        if (!shown.some((s) => answeredBy.includes(s))) missed.push(question);
      }
    }
    const figures = {
      questions: relevanceQuestions.length,
      answerable,
      wrongSources: wrong.length,
      questionsWithWrongSources: new Set(wrong.map((w) => w.question)).size,
      missedAnswers: missed.length,
      recall: Number(((answerable - missed.length) / answerable).toFixed(3)),
    };
    console.log(`RELEVANCE ${JSON.stringify({ figures, wrong, missed })}`);
    expect(figures.wrongSources).toBe(0);
  });
});
