import { describe, expect, it } from "vitest";
import { knowledgeSearch } from "../../contract";
import { convexFusion, fusionProfileFor, listsDisagree, vectorWeightFor, weightedRankFusion } from "./fusion";
import { relevanceFloorFor } from "./relevance";

const lexical = [
  { id: 1, score: 8 },
  { id: 2, score: 4 },
  { id: 3, score: 2 },
];
const vector = [
  { id: 4, score: 0.9 },
  { id: 2, score: 0.7 },
  { id: 1, score: 0.1 },
];

describe("convexFusion", () => {
  it("is the lexical order at weight 0 and the vector order at weight 1", () => {
    expect(convexFusion(lexical, vector, 0).map((x) => x.id).slice(0, 3)).toEqual([1, 2, 3]);
    expect(convexFusion(lexical, vector, 1).map((x) => x.id).slice(0, 3)).toEqual([4, 2, 1]);
  });

  it("normalises by the theoretical minimum and the best: BM25 from 0, cosines from -1", () => {
    const fused = new Map(convexFusion(lexical, vector, 0.5).map((x) => [x.id, x.score]));
    // id 2: lexical 4/8, vector (0.7 + 1) / (0.9 + 1).
    expect(fused.get(2)).toBeCloseTo(0.5 * 0.5 + 0.5 * (1.7 / 1.9), 10);
    // id 3 is missing from the vector list: that list's minimum, 0.
    expect(fused.get(3)).toBeCloseTo(0.5 * 0.25, 10);
  });

  it("is deterministic on ties and handles empty lists", () => {
    expect(convexFusion([], [], 0.5)).toEqual([]);
    expect(convexFusion([{ id: "b", score: 1 }, { id: "a", score: 1 }], [], 0).map((x) => x.id)).toEqual(["b", "a"]);
    expect(convexFusion([], [{ id: 7, score: 0.2 }], 0.3)).toEqual([{ id: 7, score: 0.3 }]);
  });

  it("clamps the weight to 0–1", () => {
    expect(convexFusion(lexical, vector, 5)).toEqual(convexFusion(lexical, vector, 1));
    expect(convexFusion(lexical, vector, -1)).toEqual(convexFusion(lexical, vector, 0));
  });
});

describe("weightedRankFusion", () => {
  it("with equal weights is reciprocal rank fusion", () => {
    const fused = weightedRankFusion([{ ids: [1, 2], weight: 1 }, { ids: [2, 3], weight: 1 }], 60);
    expect(fused.map((x) => x.id)).toEqual([2, 1, 3]);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
  });

  it("lets the heavier list lead", () => {
    expect(weightedRankFusion([{ ids: [1], weight: 0.2 }, { ids: [2], weight: 1 }]).map((x) => x.id)).toEqual([2, 1]);
  });
});

describe("the disagreement guard", () => {
  const profile = { vectorWeight: 0.8, minVectorScore: 0.5, guardDepth: 2, guardWeight: 0.1 };

  it("sees disagreement only when the first `depth` of both lists share nothing", () => {
    expect(listsDisagree(lexical, vector, 2)).toBe(false);
    expect(listsDisagree(lexical, [{ id: 9, score: 1 }, { id: 8, score: 1 }], 2)).toBe(true);
    expect(listsDisagree(lexical, [], 2)).toBe(false);
    expect(listsDisagree(lexical, [{ id: 9, score: 1 }], 0)).toBe(false);
  });

  it("lets an exact lexical match (a SKU the embedder does not know) lead when the lists disagree", () => {
    const sku = [{ id: 1, score: 12 }];
    const unrelated = [
      { id: 5, score: 0.45 },
      { id: 6, score: 0.44 },
    ];
    const weight = vectorWeightFor(profile, sku, unrelated, true);
    expect(weight).toBe(0.1);
    expect(convexFusion(sku, unrelated, weight)[0]!.id).toBe(1);
    // Without the guard the embedder's list buries the exact match.
    expect(convexFusion(sku, unrelated, profile.vectorWeight)[0]!.id).toBe(5);
    // Not complete, or the lists agree: the profile's weight.
    expect(vectorWeightFor(profile, sku, unrelated, false)).toBe(0.8);
    expect(vectorWeightFor(profile, lexical, vector, true)).toBe(0.8);
  });
});

describe("fusionProfileFor and relevanceFloorFor", () => {
  it("reads the model's profile, the default for any other, never a prototype key", () => {
    expect(fusionProfileFor("@cf/baai/bge-m3")).toEqual(knowledgeSearch.embedders["@cf/baai/bge-m3"]);
    expect(fusionProfileFor("hashing-bag-of-words")).toEqual(knowledgeSearch.embedders["hashing-bag-of-words"]);
    expect(fusionProfileFor("some-endpoint-model")).toEqual(knowledgeSearch.defaultEmbedder);
    expect(fusionProfileFor("constructor")).toEqual(knowledgeSearch.defaultEmbedder);
    expect(fusionProfileFor(null)).toEqual(knowledgeSearch.defaultEmbedder);
  });

  it("keeps the lexical rule and takes the model's cosine", () => {
    const floor = relevanceFloorFor("universal-sentence-encoder-lite");
    expect(floor).toEqual({ ...knowledgeSearch.relevanceFloor, minVectorScore: knowledgeSearch.embedders["universal-sentence-encoder-lite"].minVectorScore });
  });
});
