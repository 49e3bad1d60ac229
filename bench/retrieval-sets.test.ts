import { describe, expect, it } from "vitest";
import { retrievalSets } from "../tests/fixtures/retrieval";

// The labelled sets of bench/retrieval.mjs are well formed: every labelled passage is a section
// of its corpus, answerable questions have a passage that answers (grade 2), the others none.
describe("retrieval sets", () => {
  it("label only passages that exist, and hold at least 200 distinct questions", () => {
    for (const set of retrievalSets) {
      const sections = new Set(set.documents.flatMap((d) => [...d.text.matchAll(/^#+ (.+)$/gm)].map((m) => `${d.name}#${m[1]!.trim()}`)));
      for (const q of set.questions) {
        for (const key of Object.keys(q.relevant)) expect(sections, `${set.name}: ${q.q}`).toContain(key);
        if (q.kind === "answerable") expect(Object.values(q.relevant), q.q).toContain(2);
        else expect(q.relevant, q.q).toEqual({});
      }
      expect(new Set(set.questions.map((q) => q.q)).size, `${set.name} has a repeated question`).toBe(set.questions.length);
    }
    expect(new Set(retrievalSets.flatMap((s) => s.questions.map((q) => q.q))).size).toBeGreaterThanOrEqual(200);
  });
});
