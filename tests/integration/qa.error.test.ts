import { describe, expect, it } from "vitest";
import { qaImportResponse, qaLimits, qaMessages } from "../../contract";
import { call, errorOf, expectError, json, registerUser } from "./helpers";
import { createAssistant } from "./public-assistants-helpers";
import { addQa, importCsv } from "./qa-helpers";

/** Curated answers: bad input is a 400 naming the field and the limit; duplicates a 409 naming the pair. */

async function owner() {
  const { token } = await registerUser();
  const { _id: id } = await createAssistant(token);
  return { token, id };
}

describe("curated answers: refused input", () => {
  it("400 names the field and the limit", async () => {
    const { token, id } = await owner();
    const post = (json: unknown) => call(`/api/public-assistants/${id}/qa`, { token, method: "POST", json });
    const long = await errorOf(await post({ question: "q".repeat(qaLimits.maxQuestionChars + 1), answer: "a" }));
    expect(long.error).toBe(qaMessages.questionTooLong(qaLimits.maxQuestionChars));
    expect(long.fields?.question).toBe(qaMessages.questionTooLong(qaLimits.maxQuestionChars));
    await expectError(await post({ question: "q" }), 400, qaMessages.answerRequired);
    await expectError(await post({ question: "q", answer: "a".repeat(qaLimits.maxAnswerChars + 1) }), 400, qaMessages.answerTooLong(qaLimits.maxAnswerChars));
    await expectError(await post({ question: "q", answer: "a", variants: Array.from({ length: qaLimits.maxVariants + 1 }, (_, i) => `v${i}`) }), 400, qaMessages.tooManyVariants(qaLimits.maxVariants));
    await expectError(await post({ question: "q", answer: "a", mode: "maybe" }), 400, qaMessages.modeInvalid(qaLimits.modes));
  });

  it("409 for a question another pair's question or variant already is (normalised), on create and edit", async () => {
    const { token, id } = await owner();
    await addQa(token, id, { question: "How do I return an item?", answer: "a", variants: ["Send back a product"] });
    const other = await addQa(token, id, { question: "Shipping?", answer: "b" });
    await expectError(await call(`/api/public-assistants/${id}/qa`, { token, method: "POST", json: { question: "  how do I RETURN an item ", answer: "x" } }), 409, qaMessages.duplicateQuestion("How do I return an item?"));
    await expectError(await call(`/api/public-assistants/${id}/qa/${other.id}`, { token, method: "PATCH", json: { variants: ["send back a product!"] } }), 409, qaMessages.duplicateQuestion("How do I return an item?"));
    await expectError(await call(`/api/public-assistants/${id}/qa/${crypto.randomUUID()}`, { token, method: "PATCH", json: { answer: "x" } }), 404, qaMessages.notFound);
    await expectError(await call(`/api/public-assistants/${id}/qa/${crypto.randomUUID()}`, { token, method: "DELETE" }), 404, qaMessages.notFound);
    await expectError(await call(`/api/public-assistants/${id}/qa/${crypto.randomUUID()}`, { token }), 404, qaMessages.notFound);
  });

  it("an import must be a CSV with the header, within the size and row caps; malformed rows are reported, the rest kept", async () => {
    const { token, id } = await owner();
    await expectError(await importCsv(token, id, "question,answer\nq,a\n", "pairs.exe"), 400, qaMessages.importNotCsv);
    await expectError(await importCsv(token, id, "answer,question\nq,a\n"), 400, qaMessages.importHeader);
    await expectError(await importCsv(token, id, new Blob([new Uint8Array(qaLimits.maxImportBytes + 1).fill(0x61)])), 413, qaMessages.importTooLarge(qaLimits.maxImportBytes / (1024 * 1024)));
    const rows = Array.from({ length: qaLimits.maxImportRows + 1 }, (_, i) => `q${i},a`).join("\n");
    await expectError(await importCsv(token, id, `question,answer\n${rows}\n`), 400, qaMessages.importTooManyRows(qaLimits.maxImportRows));
    const res = await importCsv(token, id, 'question,answer,variants\n"open quote,a\n');
    const result = await json(res, qaImportResponse);
    expect(result).toEqual({ imported: 0, failed: [{ line: 2, error: qaMessages.importRowMalformed }] });
    const mixed = await json(await importCsv(token, id, 'question,answer,variants\nok?,fine,\nbad"row,x,\nalso ok?,yes,a|b\n'), qaImportResponse);
    expect(mixed).toEqual({ imported: 2, failed: [{ line: 3, error: qaMessages.importRowMalformed }] });
  });
});
