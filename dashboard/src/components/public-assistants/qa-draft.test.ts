import { describe, expect, it } from "vitest";
import { qaLimits, qaMessages } from "../../../../contract";
import { ApiError } from "../../lib/api";
import { checkDraft, draftFrom, questionBefore, serverFieldErrors } from "./qa-draft";

const pair = { id: "q1", question: "How do I return an item?", variants: ["Can I send it back?"], answer: "Within 30 days.", mode: "exact" as const, uses: 3, createdAt: 1, updatedAt: 2 };

describe("draftFrom", () => {
  it("starts from the pair being edited", () => {
    const draft = draftFrom(pair);
    expect(draft).toEqual({ question: pair.question, variants: pair.variants, answer: pair.answer, mode: "exact" });
    draft.variants.push("x");
    expect(pair.variants).toHaveLength(1);
  });
  it("starts a new pair from the visitor's question and reply, in the default mode, within the limits", () => {
    const draft = draftFrom(null, { question: `  ${"q".repeat(qaLimits.maxQuestionChars + 5)} `, answer: " The reply. " });
    expect(draft.question).toHaveLength(qaLimits.maxQuestionChars);
    expect(draft.answer).toBe("The reply.");
    expect(draft.mode).toBe(qaLimits.defaultMode);
    expect(draftFrom(undefined)).toEqual({ question: "", variants: [], answer: "", mode: qaLimits.defaultMode });
  });
});

describe("checkDraft", () => {
  it("sends the trimmed body, empty and repeated variants dropped", () => {
    const checked = checkDraft({ question: " Q? ", variants: ["", "other", "OTHER", " "], answer: " A ", mode: "guide" });
    expect(checked).toEqual({ ok: true, body: { question: "Q?", variants: ["other"], answer: "A", mode: "guide" } });
  });
  it("puts the contract's messages at their fields, a variant's at its row", () => {
    const checked = checkDraft({ question: " ", variants: ["ok", "v".repeat(qaLimits.maxQuestionChars + 1)], answer: "", mode: "exact" });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.fields.question).toBe(qaMessages.questionRequired);
    expect(checked.fields.answer).toBe(qaMessages.answerRequired);
    expect(checked.fields["variants.1"]).toBe(qaMessages.variantTooLong(qaLimits.maxQuestionChars));
  });
  it("refuses too many variants on the list", () => {
    const variants = Array.from({ length: qaLimits.maxVariants + 1 }, (_, i) => `v${i}`);
    const checked = checkDraft({ question: "Q", variants, answer: "A", mode: "exact" });
    expect(checked.ok ? null : checked.fields.variants).toBe(qaMessages.tooManyVariants(qaLimits.maxVariants));
  });
});

describe("serverFieldErrors", () => {
  it("places a duplicate's 409 at the question, naming the pair", () => {
    const message = qaMessages.duplicateQuestion("How do I return an item?");
    const err = new ApiError({ message, status: 409, code: "CONFLICT", fromServer: true });
    expect(serverFieldErrors(err)).toEqual({ question: message });
  });
  it("keeps the server's fields, and has none for other failures", () => {
    const err = new ApiError({ message: "bad", status: 400, code: "VALIDATION_ERROR", fields: { answer: "Answer is required." }, fromServer: true });
    expect(serverFieldErrors(err)).toEqual({ answer: "Answer is required." });
    expect(serverFieldErrors(new ApiError({ message: "Network Error", status: 0, code: "NETWORK_ERROR" }))).toEqual({});
    expect(serverFieldErrors(new Error("x"))).toEqual({});
  });
});

describe("questionBefore", () => {
  const msg = (role: "user" | "assistant", data: string, type = "text") => ({ role, content: { type, data }, files: [], timestamp: 1 });
  it("finds the visitor's text before a reply, skipping other replies and non-text", () => {
    const messages = [msg("user", "Q1"), msg("assistant", "A1"), msg("user", "img", "image"), msg("assistant", "A2"), msg("user", "Q3"), msg("assistant", "A3")];
    expect(questionBefore(messages, 1)).toBe("Q1");
    expect(questionBefore(messages, 3)).toBe("Q1");
    expect(questionBefore(messages, 5)).toBe("Q3");
    expect(questionBefore(messages, 0)).toBe("");
  });
});
