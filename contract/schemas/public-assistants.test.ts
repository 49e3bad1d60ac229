import { describe, expect, it } from "vitest";
import { publicAssistantDefaults, starterQuestionLimits } from "../constants";
import { qaMessages } from "../messages";
import { assistantConfigSchema, normalizeOrigin, publicAssistantBody } from "./public-assistants";

describe("normalizeOrigin", () => {
  it("normalises origins as browsers send them", () => {
    expect(normalizeOrigin("HTTPS://Shop.Example.COM:443/")).toBe("https://shop.example.com");
    expect(normalizeOrigin(" http://localhost:3000 ")).toBe("http://localhost:3000");
    expect(normalizeOrigin("http://127.0.0.1:80")).toBe("http://127.0.0.1");
    expect(normalizeOrigin("https://xn--bcher-kva.example")).toBe("https://xn--bcher-kva.example");
  });

  it("refuses anything that is not scheme://host[:port]", () => {
    for (const bad of ["example.com", "https://", "https://a.example/path", "https://a.example?q", "https://a.example#x", "ftp://a.example", "https://*.a.example", "https://u:p@a.example", "javascript:alert(1)", "null", ""]) {
      expect(normalizeOrigin(bad), bad).toBeNull();
    }
  });
});

describe("publicAssistantBody", () => {
  it("de-duplicates normalised origins and upper-cases colours", () => {
    const parsed = publicAssistantBody.parse({ allowedOrigins: ["https://a.example", "HTTPS://A.example/"], config: { customization: { primaryColor: "#abcdef" } } });
    expect(parsed.allowedOrigins).toEqual(["https://a.example"]);
    expect(parsed.config?.customization?.primaryColor).toBe("#ABCDEF");
  });
});

describe("starter questions", () => {
  const parse = (starterQuestions: unknown) => publicAssistantBody.safeParse({ config: { customization: { starterQuestions } } });
  const field = "config.customization.starterQuestions";

  it("trims, drops empty ones and keeps duplicates (any case) once", () => {
    const parsed = parse(["  Where is my order? ", "", "   ", "where is my order?", "Do you ship abroad?"]);
    expect(parsed.success && parsed.data.config?.customization?.starterQuestions).toEqual(["Where is my order?", "Do you ship abroad?"]);
  });

  it("takes the limits exactly: 4 questions of 80 characters", () => {
    const four = [1, 2, 3, 4].map((n) => `${n}`.padEnd(starterQuestionLimits.maxChars, "x"));
    expect(parse(four).success).toBe(true);
    // A fifth that is a duplicate or blank is dropped before the count.
    expect(parse([...four, four[0]!.toUpperCase(), " "]).success).toBe(true);
  });

  it("refuses a fifth question, naming the field", () => {
    const parsed = parse(["a", "b", "c", "d", "e"]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: field.split("."), message: qaMessages.tooManyStarterQuestions(starterQuestionLimits.maxQuestions) });
  });

  it("refuses a question over 80 characters (after trimming), naming it", () => {
    expect(parse([` ${"x".repeat(starterQuestionLimits.maxChars)} `]).success).toBe(true);
    const parsed = parse(["ok", "x".repeat(starterQuestionLimits.maxChars + 1)]);
    expect(parsed.error?.issues[0]).toMatchObject({ path: [...field.split("."), 1], message: qaMessages.starterQuestionTooLong(starterQuestionLimits.maxChars) });
  });

  it("refuses what is not a list of text", () => {
    for (const bad of ["Where is my order?", [42], { 0: "a" }, null]) {
      expect(parse(bad).error?.issues[0]?.message, JSON.stringify(bad)).toBe(qaMessages.starterQuestionsList);
    }
  });

  it("reads a config stored before them as none", () => {
    const stored = { ...publicAssistantDefaults.config, customization: { primaryColor: "#2962FF", headerText: "Help", welcomeMessage: "Hi" } };
    expect(assistantConfigSchema.parse(stored).customization.starterQuestions).toEqual([]);
  });
});
