import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contractErrorMap, fieldLabel, requestMessages, validationMessages as m } from "./validation";
import { chatHistory, chatHistoryQuery, chatMessages, createProjectBody, projectLimits, publicAssistantServerMessages } from "./index";

/** Parses with the error map the Worker installs globally, and returns path → message. */
const messages = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input, { error: contractErrorMap });
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("fieldLabel", () => {
  it("turns a key into words, names list items, and the body", () => {
    expect(fieldLabel(["maxMessagesPerSession"])).toBe("Max messages per session");
    expect(fieldLabel(["config", "customization", "headerText"])).toBe("Header text");
    expect(fieldLabel(["allowedOrigins", 2])).toBe("Allowed origins item 3");
    expect(fieldLabel([])).toBe("The request body");
    expect(fieldLabel(undefined)).toBe("The request body");
  });
});

describe("contractErrorMap", () => {
  const schema = z.object({
    title: z.string().max(5),
    note: z.string().min(3).optional(),
    count: z.coerce.number().int().min(1).max(10),
    tags: z.array(z.string()).max(2).optional(),
    mode: z.enum(["a", "b"]).optional(),
    when: z.iso.date().optional(),
  });

  it("names the field and the limit, never a zod default text", () => {
    const out = messages(schema, { title: "x".repeat(6), note: "ab", count: 1000001, tags: ["1", "2", "3"], mode: "c", when: "soon" });
    expect(out).toEqual({
      title: m.atMost("Title", 5, "characters"),
      note: m.atLeast("Note", 3, "characters"),
      count: m.numberAtMost("Count", 10),
      tags: m.atMost("Tags", 2, "items"),
      mode: m.oneOf("Mode", ["a", "b"]),
      when: m.format("When"),
    });
    for (const text of Object.values(out)) {
      expect(text).toMatch(/\.$/);
      expect(text).not.toMatch(/expected|Invalid input|Too big|Too small/);
    }
  });

  it("says what a missing, wrong-typed or fractional value should be", () => {
    expect(messages(schema, { count: 1.5 })).toMatchObject({ title: m.required("Title"), count: m.wholeNumber("Count") });
    expect(messages(schema, { title: 5, count: "x" })).toMatchObject({ title: m.mustBe("Title", "text"), count: m.mustBe("Count", "a number") });
    expect(messages(schema, { title: "ok", count: 0 })).toEqual({ count: m.numberAtLeast("Count", 1) });
  });

  it("refuses a missing or non-object body with one sentence", () => {
    expect(messages(schema, null)).toEqual({ "": requestMessages.bodyNotObject });
    expect(messages(schema, [])).toEqual({ "": requestMessages.bodyNotObject });
  });

  it("keeps a schema's own messages, and schema-level messages no longer hide a limit", () => {
    expect(messages(createProjectBody, {})).toEqual({ name: chatMessages.projectNameRequired });
    expect(messages(createProjectBody, { name: "  " })).toEqual({ name: chatMessages.projectNameRequired });
    expect(messages(createProjectBody, { name: "x".repeat(100_000) })).toEqual({
      name: m.atMost("Project name", projectLimits.maxNameChars, "characters"),
    });
    expect(messages(chatHistoryQuery, { page: "1000001" })).toEqual({ page: publicAssistantServerMessages.pageTooHigh(chatHistory.maxPage) });
  });
});
