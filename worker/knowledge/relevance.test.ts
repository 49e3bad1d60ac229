import { describe, expect, it } from "vitest";
import { knowledgeSearch } from "../../contract";
import { contentTerms, relevantHits, stemOf, termCoverage } from "./relevance";

const floor = knowledgeSearch.relevanceFloor;
const hit = (content: string, lexicalScore = 1, vectorScore?: number) => ({ heading: "", content, lexicalScore, ...(vectorScore === undefined ? {} : { vectorScore }) });

describe("relevance floor", () => {
  it("keeps a question's content words as stems, without English or French stop words", () => {
    expect(contentTerms("Where is the office?")).toEqual(["offic"]);
    expect(contentTerms("Quels sont les délais de livraison ?")).toEqual(["delai", "livraison"]);
    expect(stemOf("shipping")).toBe(stemOf("ship"));
    expect(stemOf("warranties")).toBe(stemOf("warranty"));
    expect(stemOf("officer")).not.toBe(stemOf("office"));
  });
  it("measures the share of the question's words a passage holds", () => {
    expect(termCoverage(contentTerms("Do you ship to Mars?"), "We ship to Spain.")).toBe(0.5);
    expect(termCoverage(contentTerms("Do you ship to Spain?"), "Shipping to Spain takes 3 days.")).toBe(1);
  });
  it("keeps passages with two thirds of the words and a BM25 score near the best, or a close vector match", () => {
    const hits = [hit("Shipping to Spain takes 3 days.", 5), hit("Spain shipping carriers get your address.", 2), hit("Returns within 30 days.", 9), hit("Nothing alike", 0, 0.8)];
    expect(relevantHits(hits, "Do you ship to Spain?", floor)).toEqual([hits[0], hits[3]]);
    expect(relevantHits([hit("Our data protection officer")], "Where is the office?", floor)).toEqual([]);
  });
  it("judges a question with no content word on the conversation", () => {
    expect(relevantHits([hit("Shipping to Spain")], "Why?", floor, "Why?\nDo you ship to Spain?")).toHaveLength(1);
  });
});
