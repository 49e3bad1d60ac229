import { describe, expect, it } from "vitest";
import { chatLimits, chatMessages, type ChatMessage } from "../../contract";
import { buildPrompt, userTurnText } from "./prompt";

const msg = (role: "user" | "assistant", data: string, i = 0): ChatMessage => ({
  id: `m${i}`,
  chatId: "c",
  role,
  content: { type: "text", data },
  files: [],
  timestamp: i,
  status: "complete",
});

describe("buildPrompt", () => {
  it("puts instructions first, then history, then the user's turn", () => {
    const turns = buildPrompt({ instructions: " Be kind. ", history: [msg("user", "q1", 1), msg("assistant", "a1", 2)], content: "q2", files: [] });
    expect(turns).toEqual([
      { role: "system", content: "Be kind." },
      { role: "user", content: "q1" },
      { role: "assistant", content: "a1" },
      { role: "user", content: "q2" },
    ]);
  });

  it("skips empty replies and keeps only the newest history within budget", () => {
    const long = "x".repeat(chatLimits.historyChars - 7); // with "recent": 1 under budget; "old" no longer fits
    const turns = buildPrompt({
      instructions: "",
      history: [msg("user", "old", 1), msg("assistant", "", 2), msg("user", long, 3), msg("assistant", "recent", 4)],
      content: "now",
      files: [],
    });
    expect(turns.map((t) => t.content)).toEqual([long, "recent", "now"]);
  });
});

describe("userTurnText", () => {
  it("adds each file's text, bounded per file and in total, marking what was cut", () => {
    const big = "y".repeat(chatLimits.promptFileChars + 5);
    const text = userTurnText("see files", [
      { name: "a.txt", text: "alpha" },
      { name: "b.txt", text: big },
      { name: "scan.pdf", text: "" },
    ]);
    expect(text).toContain("see files\n\n[Attached file: a.txt]\nalpha\n[End of a.txt]");
    expect(text).toContain(`${"y".repeat(chatLimits.promptFileChars)}\n${chatMessages.fileTruncatedNote}`);
    expect(text).toContain("[Attached file: scan.pdf (no text could be read from it)]");
    const many = userTurnText("", Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, text: "z".repeat(chatLimits.promptFileChars) })));
    expect(many.split("z").length - 1).toBe(chatLimits.promptFilesTotalChars);
  });
});
