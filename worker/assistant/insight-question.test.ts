import { describe, expect, it } from "vitest";
import { insightsLimits } from "../../contract";
import { countedQuestion, groupQuestions, nearSameQuestion, questionKey, sessionIdList, withSession, type QuestionRow } from "./insight-question";

const key = (text: string) => countedQuestion(text)?.normalized;
const row = (text: string, count = 1, lastAskedAt = 0, sessionIds: string[] = []): QuestionRow => ({ key: key(text) ?? "", wording: text, count, lastAskedAt, sessionIds });

describe("countedQuestion", () => {
  it("counts case, accents, spacing, punctuation and word order as the same question, keeping the visitor's wording", () => {
    const a = countedQuestion("  What are your   opening HOURS?? ");
    expect(a).toEqual({ normalized: "are hours opening what your", wording: "What are your opening HOURS??" });
    for (const same of ["what are your opening hours", "¿What are your opening hours…", "What are your opening-hours?", "Your opening hours: what are?"]) {
      expect(key(same)).toBe(a?.normalized);
    }
    expect(key("Your opening hours, what are they")).not.toBe(a?.normalized);
    expect(key("Opening hours: what are yours")).toBe(key("yours what are opening hours"));
    // An elided article is its own word once cut ("l'hôtel" is "hotel"), as the curated answers' matcher reads it.
    expect(key("Café près de l'hôtel ?")).toBe(key("cafe pres de hotel"));
  });

  it("folds compatibility forms (NFKC) and keeps digits", () => {
    expect(key("ＷＩＦＩ password?")).toBe("password wifi");
    expect(key("Room 12?")).not.toBe(key("Room 13?"));
  });

  it("is idempotent, so a stored key of any shape is re-keyed to the same key", () => {
    for (const text of ["Do you ship to the U.K.?", "what are your opening hours", "do you ship to the u.k"]) {
      const k = key(text)!;
      expect(questionKey(k)).toBe(k);
    }
    // A row counted under the older key shape (edges trimmed, words in order) re-keys to today's key.
    expect(questionKey("do you ship to the u.k")).toBe(key("Do you ship to the U.K.?"));
  });

  it("counts nothing for a message of spaces, punctuation or emoji", () => {
    expect(countedQuestion("   ")).toBeNull();
    expect(countedQuestion("?!… 👍")).toBeNull();
    expect(countedQuestion("")).toBeNull();
  });

  it("cuts at maxQuestionChars, never leaving a space or half a surrogate pair at the end", () => {
    const long = `${"a".repeat(insightsLimits.maxQuestionChars - 1)}😀 tail`;
    const q = countedQuestion(long)!;
    expect(q.normalized.length).toBeLessThanOrEqual(insightsLimits.maxQuestionChars);
    expect(q.wording.length).toBeLessThanOrEqual(insightsLimits.maxQuestionChars);
    expect(questionKey(`${"b".repeat(9)} zz`, 10)).toBe("b".repeat(9));
  });

  it("works on a bounded head of a huge message", () => {
    const started = performance.now();
    const q = countedQuestion(`How much? ${"x".repeat(2_000_000)}`)!;
    expect(q.normalized.startsWith("how much x") || q.normalized.startsWith("how much")).toBe(true);
    expect(q.normalized.length).toBeLessThanOrEqual(insightsLimits.maxQuestionChars);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("near-identical questions", () => {
  const near = (a: string, b: string) => nearSameQuestion(key(a)!.split(" "), key(b)!.split(" "));

  it("groups small typos (a letter missing, added, changed or two swapped) in longer words", () => {
    expect(near("What are your opening hours?", "what are your openning hours")).toBe(true);
    expect(near("When is breakfast served?", "When is breakfast servd")).toBe(true);
    expect(near("Do you deliver to Casablanca?", "do you delivr to casablanca")).toBe(true);
    expect(near("How do I receive my invoice", "how do I recieve my invoice")).toBe(true);
    expect(near("Can I bring my dog to the restaurant", "can i bring my dog to the restuarant")).toBe(true);
    expect(near("Is breakfast included in the price", "Is breakfst includd in the price")).toBe(true);
  });

  it("groups a letter typed twice in a shorter word (from 4 letters), and nothing else in one", () => {
    expect(near("Do you ship to France?", "Do you shipp to France?")).toBe(true);
    expect(near("To France, do you ship?", "do you shipp to france")).toBe(true);
    expect(near("Is the pool open?", "Is the pooll open?")).toBe(true);
    expect(near("Do you ship to France?", "Do you shup to France?")).toBe(false);
    expect(near("Do you ship to France?", "Do you hip to France?")).toBe(false);
    expect(near("Is it too late to book?", "Is it to late to book?")).toBe(false);
    expect(near("Is the bed big?", "Is the bedd big?")).toBe(false);
  });

  it("keeps apart questions that differ by a real word, a short word, a number or a negation", () => {
    expect(near("What are your opening hours?", "What are your closing hours?")).toBe(false);
    expect(near("Is the shop open on Sunday?", "Is the shop open on Monday?")).toBe(false);
    expect(near("Do you ship to France?", "Do you ship to Spain?")).toBe(false);
    expect(near("Do you ship abroad?", "Do you shop abroad?")).toBe(false);
    expect(near("How much is room 12?", "How much is room 13?")).toBe(false);
    expect(near("Can I cancel my booking?", "Can't I cancel my booking?")).toBe(false);
    expect(near("Is breakfast included?", "Is dinner included?")).toBe(false);
    expect(near("What is the wifi password?", "What is the wifi network?")).toBe(false);
    expect(near("Price of a double room", "Price of a single room")).toBe(false);
    expect(near("Do you have a red one", "Do you have a bed one")).toBe(false);
    // A word more or less is another question; so is a short question with every word changed.
    expect(near("What are your opening hours", "What are your opening hours today")).toBe(false);
    expect(near("parking", "parkinj")).toBe(false);
  });
});

describe("groupQuestions", () => {
  it("lists seven ways of asking one question as one row, in the most asked wording, with its newest conversations first", () => {
    const rows = [
      row("When is breakfast served?", 5, 100, ["s1", "s2"]),
      row("Is there parking?", 4, 500, ["p1"]),
      row("when is breakfast served", 3, 300, ["s3"]),
      row("Breakfast served: when is?", 2, 200, ["s4"]),
      row("When is breakfast servd?", 1, 400, ["s5", "s1"]),
      row("WHEN IS BREAKFAST SERVED", 1, 50, ["s6"]),
      row("When is breakfast served!!", 1, 60, []),
      row("when is breakfst served", 1, 70, []),
      row("When is the breakfast served?", 1, 80, ["t1"]),
      row("Is there a car park?", 1, 90, ["c1"]),
    ];
    const listed = groupQuestions(rows);
    expect(listed.map((q) => [q.question, q.count])).toEqual([
      ["When is breakfast served?", 14],
      ["Is there parking?", 4],
      ["Is there a car park?", 1],
      ["When is the breakfast served?", 1],
    ]);
    expect(listed[0]!.lastAskedAt).toBe(400);
    expect(listed[0]!.sessionIds).toEqual(["s5", "s1", "s3", "s4", "s2"].slice(0, insightsLimits.sessionsPerQuestion));
  });

  it("groups a row of an older key shape with today's rows of the same question", () => {
    const old: QuestionRow = { key: "what are your opening hours", wording: "What are your opening hours?", count: 7, lastAskedAt: 10, sessionIds: ["old"] };
    const listed = groupQuestions([old, row("Your opening hours, what are", 2, 20, ["new"])]);
    expect(listed).toEqual([{ question: "What are your opening hours?", count: 9, lastAskedAt: 20, sessionIds: ["new", "old"] }]);
  });

  it("compares with a group's first row only, so typos do not chain into another question", () => {
    // "mondya" is one swap from "monday"; "closing" is a word apart from "opening": three rows, two questions.
    const listed = groupQuestions([row("opening hours monday", 3), row("closing hours monday", 2), row("opening hours mondya", 1)]);
    expect(listed.map((q) => [q.question, q.count])).toEqual([
      ["opening hours monday", 4],
      ["closing hours monday", 2],
    ]);
  });

  it("lists at most max, most asked first, and is quick on its bounded input", () => {
    const rows = Array.from({ length: insightsLimits.groupedCandidates }, (_, i) => row(`question number ${i} about topic ${i % 7}`, 1000 - i, i));
    const started = performance.now();
    const listed = groupQuestions(rows);
    expect(performance.now() - started).toBeLessThan(500);
    expect(listed).toHaveLength(insightsLimits.maxListed);
    expect(listed[0]!.count).toBe(1000);
  });
});

describe("session ids of a question", () => {
  it("puts the newest conversation first, once, and keeps at most sessionsPerQuestion", () => {
    expect(withSession(["b", "a"], "a")).toEqual(["a", "b"]);
    const many = withSession(["1", "2", "3", "4", "5"], "6");
    expect(many).toEqual(["6", "1", "2", "3", "4"].slice(0, insightsLimits.sessionsPerQuestion));
  });

  it("reads a stored list defensively", () => {
    expect(sessionIdList('["a",1,"b"]')).toEqual(["a", "b"]);
    expect(sessionIdList("{}")).toEqual([]);
    expect(sessionIdList("not json")).toEqual([]);
    expect(sessionIdList(null)).toEqual([]);
  });
});
