import { describe, expect, it } from "vitest";
import { starterQuestionLimits as SQ } from "../../../../contract";
import { cleanStarterQuestions, fitStarterQuestion, suggestStarterQuestions } from "./starter-questions";

describe("cleanStarterQuestions", () => {
  it("trims, drops empty ones, keeps each once in any case, at most the limit", () => {
    expect(cleanStarterQuestions([" Where is my order? ", "", "WHERE IS MY ORDER?", "a", "b", "c", "d"])).toEqual(["Where is my order?", "a", "b", "c"]);
  });
});

describe("fitStarterQuestion", () => {
  it("keeps a question within the limit, cut at a word's end", () => {
    expect(fitStarterQuestion("  Do you   ship to Spain?  ")).toBe("Do you ship to Spain?");
    const long = `${"word ".repeat(30)}end`;
    const fitted = fitStarterQuestion(long);
    expect(fitted.length).toBeLessThanOrEqual(SQ.maxChars);
    expect(fitted.endsWith("word")).toBe(true);
    expect(fitStarterQuestion("x".repeat(200))).toBe("x".repeat(SQ.maxChars));
  });
});

describe("suggestStarterQuestions", () => {
  const top = ["where is my order?", "Do you ship to Spain?", "Can I pay later?", "How do I return an item?", "Is there a warranty?"];

  it("fills empty slots first, then adds slots up to the limit, most asked first", () => {
    expect(suggestStarterQuestions(["", "My question"], top)).toEqual({
      questions: ["where is my order?", "My question", "Do you ship to Spain?", "Can I pay later?"],
      added: 3,
    });
    expect(suggestStarterQuestions([], top).questions).toEqual(top.slice(0, SQ.maxQuestions));
  });

  it("skips questions already there (any case) and repeats among the suggestions", () => {
    expect(suggestStarterQuestions(["Where is my order?"], ["WHERE IS MY ORDER?", "Can I pay later?", "can i pay later?"])).toEqual({
      questions: ["Where is my order?", "Can I pay later?"],
      added: 1,
    });
  });

  it("adds nothing when the list is full or nothing is new", () => {
    expect(suggestStarterQuestions(["a", "b", "c", "d"], top)).toEqual({ questions: ["a", "b", "c", "d"], added: 0 });
    expect(suggestStarterQuestions(["", "Can I pay later?"], ["Can I pay later?"])).toEqual({ questions: ["", "Can I pay later?"], added: 0 });
  });

  it("fits long questions to the limit", () => {
    const { questions } = suggestStarterQuestions([], ["x".repeat(300)]);
    expect(questions).toEqual(["x".repeat(SQ.maxChars)]);
  });
});
