import { describe, expect, it } from "vitest";
import { knowledgeTextLimits } from "../../contract";
import { chunkCalls } from "./ingest";
import { textChunks } from "./ingest-text";

describe("textChunks", () => {
  it("reads the content as Markdown under the title, which every passage carries", () => {
    const { chunks } = textChunks("Returns policy", "Items can be returned within 30 days.\n\n# Refunds\n\nRefunds take five days.");
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.heading.startsWith("Returns policy"))).toBe(true);
    expect(chunks.some((c) => c.heading.includes("Refunds") && c.content.includes("five days"))).toBe(true);
    expect(chunks.map((c) => c.content).join(" ")).toContain("within 30 days");
  });

  it("gives no passage for a title alone", () => {
    expect(textChunks("Empty", "\n\n   ").chunks).toHaveLength(0);
  });

  it("fits the largest snippet in one call to the assistant's object (so its re-index is one transaction)", () => {
    const sentence = "Our shop ships worldwide with tracked parcels and friendly support. ";
    const content = sentence.repeat(Math.ceil(knowledgeTextLimits.maxContentChars / sentence.length)).slice(0, knowledgeTextLimits.maxContentChars);
    const title = "T".repeat(knowledgeTextLimits.maxTitleChars);
    const { chunks, truncated } = textChunks(title, content);
    expect(truncated).toBe(false);
    expect(chunkCalls(chunks)).toHaveLength(1);
  });
});
