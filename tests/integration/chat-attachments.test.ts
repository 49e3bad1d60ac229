import { describe, expect, it } from "vitest";
import {
  chatAttachmentField,
  chatAttachmentResponseSchema,
  chatAttachmentsPath,
  chatGuestSessionHeader,
  chatLimits,
  chatMessages,
  knowledgeMessages,
  serverMessages,
  throttles,
  upload,
} from "../../contract";
import { makeCorruptDocx, makeDocx, makePdf } from "../fixtures/knowledge-files";
import { newGuestId } from "./chat-helpers";
import { call, expectError, json, randomIp, registerUser, type CallInit } from "./helpers";

const form = (name: string, bytes: Uint8Array | string) => {
  const body = new FormData();
  body.append(chatAttachmentField, new File([typeof bytes === "string" ? new TextEncoder().encode(bytes) : new Uint8Array(bytes)], name));
  return body;
};

const send = (name: string, bytes: Uint8Array | string, init: CallInit = {}) =>
  call(chatAttachmentsPath, { method: "POST", body: form(name, bytes), ...init });

const asGuest = (guestId = newGuestId()): CallInit => ({ headers: { [chatGuestSessionHeader]: guestId } });

const docx = () => makeDocx([{ text: "Shipping", heading: 1 }, { text: "Orders ship within two business days from Marrakesh." }]);
const pdf = () => makePdf([["Returns are accepted within thirty days.", "Quasimodo receipts are required."]]);

// The first extraction loads mammoth and PDF.js, and sign-up hashes a password: slow on a busy machine.
describe("POST /api/chat/attachments", { timeout: 30_000 }, () => {
  it("gives a signed-in user the text of a docx and a pdf, storing nothing", async () => {
    const { token } = await registerUser();
    const d = await json(await send("shipping.docx", await docx(), { token }), chatAttachmentResponseSchema);
    expect(d).toMatchObject({ name: "shipping.docx", truncated: false });
    expect(d.text).toContain("Shipping");
    expect(d.text).toContain("Orders ship within two business days from Marrakesh.");
    const p = await json(await send("returns.pdf", pdf(), { token }), chatAttachmentResponseSchema);
    expect(p.name).toBe("returns.pdf");
    expect(p.text).toContain("Returns are accepted within thirty days.");
    expect(p.text).toContain("Quasimodo receipts are required.");
  });

  it("gives a guest naming a valid guest session the same text", async () => {
    const guest = asGuest();
    const d = await json(await send("shipping.docx", await docx(), guest), chatAttachmentResponseSchema);
    expect(d.text).toContain("Marrakesh");
    const p = await json(await send("returns.pdf", pdf(), guest), chatAttachmentResponseSchema);
    expect(p.text).toContain("Quasimodo");
  });

  it("refuses an anonymous caller without a guest id (401) and a malformed guest id", async () => {
    await expectError(await send("returns.pdf", pdf()), 401, serverMessages.authRequired);
    await expectError(await send("returns.pdf", pdf(), asGuest("guest-nope")), 401, chatMessages.guestIdInvalid);
    const stale = await send("returns.pdf", pdf(), { token: "not-a-real-token", ...asGuest() });
    expect(stale.status).toBe(401);
  });

  it("refuses a zip named .pdf (415), a file over 15 MB (413) and a corrupt docx (422)", async () => {
    const guest = asGuest();
    // A zip (a docx) named .pdf: the bytes are sniffed, the name is not trusted.
    await expectError(await send("fake.pdf", await docx(), guest), 415, knowledgeMessages.notValid("fake.pdf", "PDF"));
    const big = new Uint8Array(upload.maxFileBytes + 1);
    await expectError(await send("big.txt", big, guest), 413, knowledgeMessages.fileTooLarge("big.txt"));
    const corrupt = await send("broken.docx", await makeCorruptDocx(), guest);
    expect(corrupt.status).toBe(422);
    expect(((await corrupt.json()) as { error: string }).error).toMatch(/^broken\.docx /);
    await expectError(await send("virus.exe", "MZ", guest), 415, knowledgeMessages.unsupportedType("virus.exe"));
  });

  it("cuts long text to what the socket accepts and says so", async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} says something rather long about kettles.`).join("\n\n");
    const res = await json(await send("long.txt", long, asGuest()), chatAttachmentResponseSchema);
    expect(res.text).toHaveLength(chatLimits.maxFileTextChars);
    expect(res.truncated).toBe(true);
  });

  it("throttles per IP", async () => {
    const ip = randomIp();
    const guest = { ...asGuest(), ip };
    for (let i = 0; i < throttles.chatAttachment.limit; i++) expect((await send("a.txt", "hello", guest)).status).toBe(200);
    expect((await send("a.txt", "hello", guest)).status).toBe(429);
  });
});
