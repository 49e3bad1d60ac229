import { describe, expect, it } from "vitest";
import { chatMessages } from "../../contract";
import { cleanTitle, fallbackTitle } from "./title";

describe("titles", () => {
  it("cleans a model's answer to at most six words on one line", () => {
    expect(cleanTitle('Title: "Planning a Trip to Fez."')).toBe("Planning a Trip to Fez");
    expect(cleanTitle("<think>hmm</think>\n\n  Garden tomatoes and when to plant them early\nmore")).toBe("Garden tomatoes and when to plant");
    expect(cleanTitle("   \n ")).toBeNull();
  });

  it("falls back to the first words of the message, else a file name, else 'New chat'", () => {
    expect(fallbackTitle("  What   is the **capital** of Morocco today please")).toBe("What is the capital of Morocco");
    expect(fallbackTitle("", ["report.pdf"])).toBe("report.pdf");
    expect(fallbackTitle("")).toBe(chatMessages.untitledChat);
    expect(fallbackTitle("x".repeat(200)).length).toBeLessThanOrEqual(80);
  });
});
