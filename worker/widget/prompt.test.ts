import { describe, expect, it } from "vitest";
import { widget, widgetMessages } from "../../contract";
import { buildKnowledgePrompt, citedSources, excerptOf, offlineAnswer, retrievalQuery, sourcesOf, type Passage } from "./prompt";

const passage = (fileId: string, fileName: string, content: string): Passage => ({ fileId, fileName, heading: "", content });

describe("retrievalQuery", () => {
  it("puts the question first, then the visitor's latest earlier messages", () => {
    const history = [
      { role: "user" as const, content: "old question" },
      { role: "assistant" as const, content: "answer" },
      { role: "user" as const, content: "shipping to France" },
    ];
    expect(retrievalQuery("and Spain?", history)).toBe("and Spain?\nshipping to France\nold question");
  });
});

describe("sources", () => {
  const passages = [passage("f1", "a.md", "alpha text"), passage("f2", "b.pdf", "beta text"), passage("f1", "a.md", "more alpha")];
  it("keeps one source per file, best passage first", () => {
    expect(sourcesOf(passages)).toEqual([
      { fileId: "f1", name: "a.md", excerpt: "alpha text" },
      { fileId: "f2", name: "b.pdf", excerpt: "beta text" },
    ]);
  });
  it("keeps the cited files, or all of them when none is cited", () => {
    const sources = sourcesOf(passages);
    expect(citedSources("See [b.pdf].", sources).map((s) => s.name)).toEqual(["b.pdf"]);
    expect(citedSources("No citation here.", sources)).toHaveLength(2);
  });
  it("cuts long excerpts at a word", () => {
    const cut = excerptOf("word ".repeat(200), 20);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(21);
  });
});

describe("buildKnowledgePrompt", () => {
  const base = { assistantName: "Helper", instructions: "Be brief.", history: [], question: "Refunds?", files: [], locale: "fr-FR" };
  it("puts rules, instructions, locale and numbered passages in the system prompt", () => {
    const [system, user] = buildKnowledgePrompt({ ...base, passages: [passage("f", "policy.md", "45 days")] });
    expect(system!.role).toBe("system");
    expect(system!.content).toContain("Be brief.");
    expect(system!.content).toContain("fr-FR");
    expect(system!.content).toContain("[1] Document: policy.md\n45 days");
    expect(system!.content).toMatch(/\[pricing\.pdf\]/);
    expect(user).toEqual({ role: "user", content: "Refunds?" });
  });
  it("says so when no passage matched", () => {
    const [system] = buildKnowledgePrompt({ ...base, passages: [] });
    expect(system!.content).toMatch(/no document covers this question/);
  });
  it("gives the owner's contact line when no passage matched, and only then", () => {
    const contactLine = "Email help@shop.example";
    const [none] = buildKnowledgePrompt({ ...base, passages: [], contactLine });
    expect(none!.content).toContain(`contact line, as written:\n${contactLine}`);
    const [found] = buildKnowledgePrompt({ ...base, passages: [passage("f", "policy.md", "45 days")], contactLine });
    expect(found!.content).not.toContain(contactLine);
    const [blank] = buildKnowledgePrompt({ ...base, passages: [], contactLine: "  " });
    expect(blank!.content).not.toMatch(/contact line/);
  });
  it("keeps the newest history within the budget", () => {
    const history = Array.from({ length: widget.historyMessages + 4 }, (_, i) => ({ role: (i % 2 ? "assistant" : "user") as "user" | "assistant", content: `m${i}` }));
    const turns = buildKnowledgePrompt({ ...base, passages: [], history });
    expect(turns).toHaveLength(widget.historyMessages + 2);
    expect(turns.at(-2)!.content).toBe(`m${history.length - 1}`);
  });
});

describe("offlineAnswer", () => {
  it("labels the best passages as excerpts with their sources", () => {
    const text = offlineAnswer([passage("f", "policy.md", "Returns within 45 days."), passage("g", "faq.md", "Ships in 2 days.")]);
    expect(text.startsWith(widgetMessages.offlineIntro)).toBe(true);
    expect(text).toContain('1. From "policy.md":\n> Returns within 45 days.');
    expect(text).toContain(widgetMessages.offlineSources(["policy.md", "faq.md"]));
  });
  it("says plainly when nothing matched", () => {
    expect(offlineAnswer([])).toBe(widgetMessages.offlineNothing);
    expect(offlineAnswer([], " ")).toBe(widgetMessages.offlineNothing);
  });
  it("adds the owner's contact line when nothing matched and one is set", () => {
    expect(offlineAnswer([], "Call 0161 496 0000")).toBe(widgetMessages.offlineNothingContact("Call 0161 496 0000"));
    expect(offlineAnswer([passage("f", "policy.md", "Returns within 45 days.")], "Call us")).not.toContain("Call us");
  });
});
