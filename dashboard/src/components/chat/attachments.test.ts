import { describe, expect, it, vi } from "vitest";
import { chatAttachmentsPath, chatGuestSessionHeader, chatLimits, chatMessages, chatUi, knowledgeMessages, publicAssistantMessages, upload } from "../../../../contract";
import { clipAttachmentText, isTextFile, readAttachment, selectAttachments, selectionToast, type ReadDeps } from "./attachments";

const file = (name: string, size = 10) => ({ name, size });

describe("selectAttachments", () => {
  it("accepts every knowledge-file type (pdf, Word and Excel too) and refuses other types and files over 15 MB", () => {
    const s = selectAttachments(0, [file("notes.md"), file("data.csv"), file("x.exe"), file("big.txt", upload.maxFileBytes + 1), file("report.pdf"), file("sheet.XLSX")]);
    expect(s.accepted.map((f) => f.name)).toEqual(["notes.md", "data.csv", "report.pdf", "sheet.XLSX"]);
    expect(s.rejected).toEqual([
      { name: "x.exe", reason: "type" },
      { name: "big.txt", reason: "size" },
    ]);
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
    expect(selectionToast(selectAttachments(0, [file("r.pdf"), file("w.docx")]))).toBeNull();
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

describe("readAttachment", () => {
  const jsonResponse = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const deps = (fetch: ReadDeps["fetch"], who: { auth?: string; guest?: string } = {}): ReadDeps => ({
    fetch,
    authorization: () => who.auth ?? null,
    guestSessionId: () => who.guest ?? null,
  });
  const docx = () => new File([new Uint8Array([0x50, 0x4b, 3, 4])], "plan.docx");

  it("reads text files in the browser, without calling the server", async () => {
    const fetch = vi.fn<ReadDeps["fetch"]>();
    const result = await readAttachment(new File(["hello"], "a.md"), deps(fetch));
    expect(result).toEqual({ ok: true, attachment: { name: "a.md", text: "hello" } });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("sends pdf, Word and Excel files to the server as the signed-in user and clips the text", async () => {
    const fetch = vi.fn<ReadDeps["fetch"]>(async () => jsonResponse(200, { name: "plan.docx", text: "x".repeat(chatLimits.maxFileTextChars), truncated: true }));
    const result = await readAttachment(docx(), deps(fetch, { auth: "Token t1", guest: "guest-1-abcd" }));
    expect(result).toEqual({ ok: true, attachment: { name: "plan.docx", text: "x".repeat(chatLimits.maxFileTextChars) } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(chatAttachmentsPath);
    expect(init?.method).toBe("POST");
    const headers = init?.headers as Record<string, string>;
    expect(headers.authorization).toBe("Token t1");
    expect(headers[chatGuestSessionHeader]).toBeUndefined();
    expect((init?.body as FormData).get("file")).toBeInstanceOf(File);
  });

  it("names a guest by their guest session id", async () => {
    const fetch = vi.fn<ReadDeps["fetch"]>(async () => jsonResponse(200, { name: "plan.docx", text: "Plan", truncated: false }));
    await readAttachment(docx(), deps(fetch, { guest: "guest-1700000000000-abcd1234efgh5678" }));
    const headers = fetch.mock.calls[0]![1]?.headers as Record<string, string>;
    expect(headers.authorization).toBeUndefined();
    expect(headers[chatGuestSessionHeader]).toBe("guest-1700000000000-abcd1234efgh5678");
  });

  it("turns the server's refusal into a toast with its error, under the spec's titles for type and size", async () => {
    const refuse = (status: number, error: string, code: string) =>
      readAttachment(docx(), deps(async () => jsonResponse(status, { error, code, requestId: "r" })));
    expect(await refuse(422, knowledgeMessages.passwordProtected("plan.docx"), "UNPROCESSABLE")).toEqual({
      ok: false,
      toast: { title: chatUi.attachmentUnreadableTitle, description: knowledgeMessages.passwordProtected("plan.docx") },
    });
    expect(await refuse(415, "not a docx", "UNSUPPORTED_MEDIA_TYPE")).toMatchObject({ toast: { title: publicAssistantMessages.invalidFileTypeTitle, description: "not a docx" } });
    expect(await refuse(413, "too big", "PAYLOAD_TOO_LARGE")).toMatchObject({ toast: { title: publicAssistantMessages.fileTooLargeTitle } });
  });

  it("a network failure or an unreadable answer says the file could not be read", async () => {
    const expected = { ok: false, toast: { title: chatUi.attachmentUnreadableTitle, description: chatUi.attachmentReadFailed("plan.docx") } };
    expect(await readAttachment(docx(), deps(() => Promise.reject(new TypeError("Failed to fetch"))))).toEqual(expected);
    expect(await readAttachment(docx(), deps(async () => new Response("<html>", { status: 502 })))).toEqual(expected);
    expect(await readAttachment(docx(), deps(async () => jsonResponse(200, { nope: true })))).toEqual(expected);
  });
});
