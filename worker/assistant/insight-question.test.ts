import { describe, expect, it } from "vitest";
import { insightsLimits } from "../../contract";
import { countedQuestion, sessionIdList, withSession } from "./insight-question";

describe("countedQuestion", () => {
  it("counts case, spacing and end punctuation as the same question, keeping the visitor's wording", () => {
    const a = countedQuestion("  What are your   opening HOURS?? ");
    const b = countedQuestion("what are your opening hours");
    const c = countedQuestion("¿What are your opening hours…");
    expect(a).toEqual({ normalized: "what are your opening hours", wording: "What are your opening HOURS??" });
    expect(b?.normalized).toBe(a?.normalized);
    expect(c?.normalized).toBe(a?.normalized);
  });

  it("keeps punctuation inside the question and folds compatibility forms (NFKC)", () => {
    expect(countedQuestion("Do you ship to the U.K.?")?.normalized).toBe("do you ship to the u.k");
    expect(countedQuestion("ＷＩＦＩ password?")?.normalized).toBe("wifi password");
  });

  it("counts nothing for a message of spaces, punctuation or emoji", () => {
    expect(countedQuestion("   ")).toBeNull();
    expect(countedQuestion("?!… 👍")).toBeNull();
    expect(countedQuestion("")).toBeNull();
  });

  it("cuts at maxQuestionChars, never leaving a space, punctuation or half a surrogate pair at the end", () => {
    const long = `${"a".repeat(insightsLimits.maxQuestionChars - 1)}😀 tail`;
    const q = countedQuestion(long)!;
    expect(q.normalized).toBe("a".repeat(insightsLimits.maxQuestionChars - 1));
    expect(q.wording.length).toBeLessThanOrEqual(insightsLimits.maxQuestionChars);
    expect(countedQuestion(`${"b".repeat(9)} ?tail`, 11)?.normalized).toBe("b".repeat(9));
  });

  it("works on a bounded head of a huge message", () => {
    const q = countedQuestion(`How much? ${"x".repeat(2_000_000)}`)!;
    expect(q.normalized.startsWith("how much? x")).toBe(true);
    expect(q.normalized.length).toBe(insightsLimits.maxQuestionChars);
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
