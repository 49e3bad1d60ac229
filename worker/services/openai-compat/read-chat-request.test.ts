import { describe, expect, it } from "vitest";
import { openAiCompat, openAiCompatMessages as M } from "../../../contract";
import { paramName, readChatRequest } from "./read-chat-request";

const read = (value: unknown) => readChatRequest({ parsed: true, value });
const user = { role: "user", content: "hi" };

describe("readChatRequest names the field at fault, as OpenAI does", () => {
  it.each([
    [{ model: 5, messages: [user] }, "model", M.invalidType("model", "a string"), "invalid_type"],
    [{ stream: "yes", messages: [user] }, "stream", M.invalidType("stream", "a boolean"), "invalid_type"],
    [{ model: "m".repeat(201), messages: [user] }, "model", M.tooLong("model", 200), "string_above_max_length"],
    [{}, "messages", M.missingParameter("messages"), "missing_required_parameter"],
    [{ messages: "hi" }, "messages", M.messagesRequired, "invalid_type"],
    [{ messages: [] }, "messages", M.messagesRequired, "empty_array"],
    [{ messages: Array.from({ length: openAiCompat.maxMessages + 1 }, () => user) }, "messages", M.tooManyMessages(openAiCompat.maxMessages), "array_above_max_length"],
    [{ messages: [user, { role: "bot", content: "x" }] }, "messages[1].role", M.invalidValue("messages[1].role", ["system", "developer", "user", "assistant"]), "invalid_value"],
    [{ messages: [{ content: "x" }] }, "messages[0].role", M.missingParameter("messages[0].role"), "missing_required_parameter"],
    [{ messages: [{ role: "user", content: 7 }] }, "messages[0].content", M.invalidType("messages[0].content", "a string or an array of content parts"), "invalid_type"],
    [{ messages: ["hi"] }, "messages[0]", M.invalidType("messages[0]", "an object"), "invalid_type"],
    [{ messages: [{ role: "system", content: "x" }] }, "messages", M.noUserMessage, "invalid_value"],
  ])("%j → param %s", (body, param, message, code) => {
    expect(read(body)).toMatchObject({ outcome: "refused", status: 400, type: "invalid_request_error", param, message, code });
  });

  it("refuses a body that is not an object as missing its messages", () => {
    expect(read([user])).toMatchObject({ status: 400, param: "messages" });
    expect(readChatRequest({ parsed: false })).toMatchObject({ status: 400, message: M.invalidJson, param: null });
  });

  it("reads a valid request", () => {
    expect(read({ model: "x", stream: true, messages: [user] })).toMatchObject({ model: "x", stream: true, conversation: { question: "hi" } });
  });

  it("writes paths as OpenAI does", () => {
    expect(paramName(["messages", 3, "content", 0, "text"])).toBe("messages[3].content[0].text");
  });
});
