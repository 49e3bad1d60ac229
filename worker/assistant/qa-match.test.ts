import { describe, expect, it } from "vitest";
import { qaLimits } from "../../contract";
import { evaluate, shopPairs, shopQuestions } from "../../tests/fixtures/qa-shop/evaluate";
import { HashingEmbeddings } from "../knowledge/embeddings";
import { QaIndex, normaliseQuestion, questionTerms, withinOneEdit } from "./qa-match";

describe("curated answers: the labelled shop set", () => {
  const index = new QaIndex(shopPairs);

  it("gives no question a wrong pair at the default strictness", () => {
    const result = evaluate(index, qaLimits.defaultStrictness);
    expect(result.questions).toBeGreaterThanOrEqual(300);
    expect(result.wrong).toEqual([]);
    // Precision first, but it still answers most paraphrases (figures: bench/results/qa-matching.json).
    expect(result.paraphrasesMatched / result.paraphrases).toBeGreaterThan(0.75);
  });

  it("gives no question a wrong pair when strict, and strict answers no more than the default", () => {
    const strict = evaluate(index, "strict");
    expect(strict.wrong).toEqual([]);
    expect(strict.paraphrasesMatched).toBeLessThanOrEqual(evaluate(index, "balanced").paraphrasesMatched);
  });

  it("answers as well with the test embedder's vectors at every strictness", async () => {
    const embedder = new HashingEmbeddings(256);
    const texts = [...new Set([...shopQuestions.map((q) => q.q), ...shopPairs.flatMap((p) => [p.question, ...p.variants])])];
    const vectors = new Map((await embedder.embed(texts)).map((v, i) => [texts[i]!, v]));
    const withVectors = new QaIndex(shopPairs.map((p) => ({ ...p, vectors: [p.question, ...p.variants].map((t) => vectors.get(t)!) })));
    for (const strictness of qaLimits.strictnessLevels) {
      const lexical = evaluate(index, strictness);
      const both = evaluate(withVectors, strictness, (t) => vectors.get(t)!);
      expect(both.wrong.length, strictness).toBeLessThanOrEqual(lexical.wrong.length);
      expect(both.paraphrasesMatched, strictness).toBeGreaterThanOrEqual(lexical.paraphrasesMatched);
      if (strictness !== "loose") expect(both.wrong).toEqual([]);
    }
  });

  it("matches the same after pairs are added, edited and removed in place as after a fresh build", () => {
    const inPlace = new QaIndex(shopPairs.slice(0, 30));
    for (const pair of shopPairs.slice(30)) inPlace.upsert(pair);
    inPlace.upsert({ ...shopPairs[3]!, question: "Do you sell concert tickets?", variants: [] });
    inPlace.upsert({ id: "extra", mode: "exact", question: "Do you sell concert tickets?", variants: [] });
    expect(inPlace.remove(shopPairs[5]!.id)).toBe(true);
    expect(inPlace.remove("extra")).toBe(true);
    expect(inPlace.remove("extra")).toBe(false);
    inPlace.upsert(shopPairs[3]!);
    inPlace.upsert(shopPairs[5]!);
    expect(inPlace.size).toBe(index.size);
    for (const strictness of qaLimits.strictnessLevels) {
      for (const { q } of shopQuestions) {
        const a = inPlace.match(q, strictness);
        const b = index.match(q, strictness);
        expect(a.used?.qaId, q).toBe(b.used?.qaId);
        expect(a.candidates.map((c) => [c.qaId, c.score.toFixed(9)]), q).toEqual(b.candidates.map((c) => [c.qaId, c.score.toFixed(9)]));
      }
    }
  });

  it("tells a return of an item from a return to the home page", () => {
    expect(index.match("how do i return an item", "balanced").used?.qaId).toBe("return-item");
    expect(index.match("how do I return to the home page", "balanced").used).toBeNull();
  });
});

describe("curated answers: the matcher", () => {
  it("normalises case, accents, punctuation, whitespace and Arabic letter forms", () => {
    expect(normaliseQuestion("  Où   est MA Commande ?! ")).toBe("ou est ma commande");
    expect(normaliseQuestion("أين طلبي؟")).toBe(normaliseQuestion("اين طلبي"));
  });

  it("drops stop words and stems", () => {
    expect(questionTerms("How long does shipping take?")).toEqual(["long", "ship", "tak"]);
  });

  it("cuts French elisions off and keeps English contractions whole", () => {
    expect(normaliseQuestion("J'ai oublié l'adresse d'ouverture")).toBe("ai oublie adresse ouverture");
    expect(normaliseQuestion("I don't know, it's late")).toBe("i dont know its late");
    expect(questionTerms("J'ai oublié mon mot de passe").sort()).toEqual(questionTerms("mot de passe oublie").sort());
  });

  it("folds Arabic tatweel and digits, and takes the article, prepositions and possessives off", () => {
    expect(normaliseQuestion("طـلـب ١٢٣")).toBe("طلب 123");
    expect(questionTerms("كيف يمكنني تتبع طلبي؟")).toEqual(questionTerms("تتبع الطلب"));
    expect(questionTerms("بالبطاقة")).toEqual(questionTerms("البطاقه"));
  });

  it("matches French and Arabic questions to pairs written in those languages", () => {
    const index = new QaIndex([
      { id: "password", mode: "exact", question: "Mot de passe oublié", variants: ["نسيت كلمة المرور"] },
      { id: "track", mode: "exact", question: "Suivre ma commande", variants: ["تتبع الطلب"] },
      { id: "hours", mode: "exact", question: "Horaires d'ouverture des magasins", variants: [] },
    ]);
    expect(index.match("J'ai oublié mon mot de passe", "balanced").used?.qaId).toBe("password");
    expect(index.match("كيف يمكنني تتبع طلبي؟", "balanced").used?.qaId).toBe("track");
    expect(index.match("Quelles sont les horaires d'ouverture du magasin ?", "balanced").used?.qaId).toBe("hours");
    expect(index.match("Quel temps fait-il à Paris ?", "balanced").used).toBeNull();
  });

  it("takes a word one edit away (a swap counts one) for a typo", () => {
    expect(withinOneEdit("retrun", "return")).toBe(true);
    expect(withinOneEdit("trak", "track")).toBe(true);
    expect(withinOneEdit("order", "other")).toBe(false);
    const index = new QaIndex([{ id: "a", mode: "exact", question: "How do I return an item?", variants: [] }]);
    expect(index.match("how do I retrun an item", "balanced").used?.qaId).toBe("a");
  });

  it("matches by vector when the question's is close enough, and offers near pairs as candidates", () => {
    const v = (x: number, y: number) => Float32Array.from([x, y]);
    const index = new QaIndex([
      { id: "a", mode: "guide", question: "parcel lockers", variants: [], vectors: [v(1, 0)] },
      { id: "b", mode: "exact", question: "gift wrapping for my order", variants: [], vectors: [v(0, 1)] },
    ]);
    expect(index.match("colis en point relais", "balanced", v(0.999, 0.04)).used).toMatchObject({ qaId: "a", by: "vector" });
    expect(index.match("colis en point relais", "balanced", v(0.6, 0.8)).used).toBeNull();
    expect(index.match("gift wrapping options", "balanced").candidates.map((c) => c.qaId)).toEqual(["b"]);
  });

  it("answers nothing with no pairs", () => {
    expect(new QaIndex([]).match("anything", "loose")).toEqual({ used: null, candidates: [] });
  });
});
