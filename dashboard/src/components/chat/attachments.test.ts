import { describe, expect, it } from "vitest";
import { chatLimits, chatMessages, chatUi, publicAssistantMessages, upload } from "../../../../contract";
import { clipAttachmentText, isTextFile, selectAttachments, selectionToast } from "./attachments";

const file = (name: string, size = 10) => ({ name, size });

describe("selectAttachments", () => {
  it("accepts the text types, refuses other types and files over 15 MB, and names the unreadable ones", () => {
    const s = selectAttachments(0, [file("notes.md"), file("data.csv"), file("x.exe"), file("big.txt", upload.maxFileBytes + 1), file("report.pdf"), file("sheet.XLSX")]);
    expect(s.accepted.map((f) => f.name)).toEqual(["notes.md", "data.csv"]);
    expect(s.rejected).toEqual([
      { name: "x.exe", reason: "type" },
      { name: "big.txt", reason: "size" },
    ]);
    expect(s.unreadable).toEqual(["report.pdf", "sheet.XLSX"]);
  });

  it("a file of exactly 15 MB is accepted", () => {
    expect(selectAttachments(0, [file("a.txt", upload.maxFileBytes)]).accepted).toHaveLength(1);
  });

  it("stops at the per-message limit, counting files already attached", () => {
    const s = selectAttachments(chatLimits.maxFiles - 1, [file("a.txt"), file("b.txt")]);
    expect(s.accepted.map((f) => f.name)).toEqual(["a.txt"]);
    expect(s.overflow).toEqual(["b.txt"]);
  });
});

describe("selectionToast", () => {
  it("uses the spec's titles and messages first, then the chat's own", () => {
    expect(selectionToast(selectAttachments(0, [file("ok.txt")]))).toBeNull();
    expect(selectionToast(selectAttachments(0, [file("x.exe")]))).toEqual({
      title: publicAssistantMessages.invalidFileTypeTitle,
      description: publicAssistantMessages.invalidFileType("x.exe"),
    });
    expect(selectionToast(selectAttachments(0, [file("big.json", upload.maxFileBytes + 1)]))?.title).toBe(publicAssistantMessages.fileTooLargeTitle);
    const pdf = selectionToast(selectAttachments(0, [file("r.pdf")]));
    expect(pdf).toEqual({ title: chatUi.attachmentUnreadableTitle, description: chatUi.attachmentUnreadable("r.pdf") });
    const many = selectionToast(selectAttachments(chatLimits.maxFiles, [file("a.txt")]));
    expect(many).toEqual({ title: chatUi.tooManyAttachmentsTitle, description: chatMessages.tooManyFiles(chatLimits.maxFiles) });
  });
});

describe("text", () => {
  it("knows the text types and clips long text to what the socket accepts", () => {
    expect(isTextFile("a.XML")).toBe(true);
    expect(isTextFile("a.docx")).toBe(false);
    expect(clipAttachmentText("x".repeat(chatLimits.maxFileTextChars + 5))).toHaveLength(chatLimits.maxFileTextChars);
    expect(clipAttachmentText("short")).toBe("short");
  });
});
