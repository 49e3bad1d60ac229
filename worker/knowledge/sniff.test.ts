import { describe, expect, it } from "vitest";
import { knowledgeMessages, upload } from "../../contract";
import { makeCorruptDocx, makeDoc, makeDocx, makeEncryptedOfficeFile, makePdf, makeWorkbook, utf8 } from "../../tests/fixtures/knowledge-files";
import { KnowledgeError } from "./errors";
import { checkNameAndSize, displayName, kindFromName, sniffFile } from "./sniff";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(KnowledgeError);
    return error as KnowledgeError;
  }
  throw new Error("expected a refusal");
};

describe("kindFromName / displayName", () => {
  it("maps every accepted extension, case-insensitively, and nothing else", () => {
    for (const ext of Object.keys(upload.accepted)) expect(kindFromName(`a${ext.toUpperCase()}`)).toBe(ext.slice(1));
    expect(kindFromName("archive.zip")).toBeNull();
    expect(kindFromName("README")).toBeNull();
    expect(kindFromName("report.pdf.exe")).toBeNull();
  });

  it("keeps only the last path segment of a name", () => {
    expect(displayName("C:\\fakepath\\report.pdf")).toBe("report.pdf");
    expect(displayName("a/b/c.txt")).toBe("c.txt");
    expect(displayName("  ")).toBe("This file");
  });
});

describe("sniffFile: size and extension", () => {
  it("accepts exactly 15728640 bytes and refuses one more with the spec's message", () => {
    const atLimit = new Uint8Array(upload.maxFileBytes).fill(0x61);
    expect(sniffFile({ name: "big.txt", bytes: atLimit }).kind).toBe("txt");
    const over = new Uint8Array(upload.maxFileBytes + 1).fill(0x61);
    const error = refusal(() => sniffFile({ name: "big.txt", bytes: over }));
    expect(error.reason).toBe("too_large");
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.message).toBe("big.txt exceeds the 15MB size limit.");
    expect(refusal(() => checkNameAndSize("big.pdf", upload.maxFileBytes + 1)).reason).toBe("too_large");
  });

  it("refuses an unsupported extension with the spec's message", () => {
    const error = refusal(() => sniffFile({ name: "tool.exe", bytes: utf8("MZ") }));
    expect(error.reason).toBe("unsupported_type");
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.message).toBe("tool.exe is not a supported file type.");
  });

  it("ignores the declared MIME type and stores the kind's canonical one", () => {
    const file = sniffFile({ name: "data.csv", mimeType: "application/octet-stream", bytes: utf8("a,b\n1,2\n") });
    expect(file).toMatchObject({ kind: "csv", mimeType: "text/csv" });
  });
});

describe("sniffFile: content must match the extension", () => {
  it("accepts a real PDF and refuses a .pdf whose bytes are a zip", async () => {
    expect(sniffFile({ name: "report.pdf", bytes: makePdf([["Hello"]]) }).kind).toBe("pdf");
    const zip = await makeDocx([{ text: "x" }]);
    const error = refusal(() => sniffFile({ name: "report.pdf", bytes: zip }));
    expect(error.reason).toBe("content_mismatch");
    expect(error.message).toBe("report.pdf is not a valid PDF file.");
  });

  it("tells docx from xlsx by their main part", async () => {
    const docx = await makeDocx([{ text: "x" }]);
    const xlsx = makeWorkbook({ Sheet1: [["a"], ["b"]] });
    expect(sniffFile({ name: "notes.docx", bytes: docx }).kind).toBe("docx");
    expect(sniffFile({ name: "book.xlsx", bytes: xlsx }).kind).toBe("xlsx");
    expect(refusal(() => sniffFile({ name: "notes.docx", bytes: xlsx })).message).toBe("notes.docx is not a valid Word (.docx) file.");
    expect(refusal(() => sniffFile({ name: "book.xlsx", bytes: docx })).message).toBe("book.xlsx is not a valid Excel (.xlsx) file.");
  });

  it("refuses a truncated docx as damaged", async () => {
    const docx = await makeDocx([{ text: "Some text" }]);
    const error = refusal(() => sniffFile({ name: "notes.docx", bytes: docx.subarray(0, docx.length - 30) }));
    expect(error.reason).toBe("damaged");
    expect(error.message).toBe(knowledgeMessages.damaged("notes.docx"));
    expect(error.message).toBe("notes.docx could not be read: the file is damaged.");
  });

  it("lets a zip with the right parts through sniffing (extraction then reports it damaged)", async () => {
    expect(sniffFile({ name: "notes.docx", bytes: await makeCorruptDocx() }).kind).toBe("docx");
  });

  it("recognises a password-protected docx (an OLE EncryptedPackage)", () => {
    const error = refusal(() => sniffFile({ name: "secret.docx", bytes: makeEncryptedOfficeFile() }));
    expect(error.reason).toBe("password_protected");
    expect(error.message).toBe("secret.docx is password-protected.");
  });

  it("tells doc from xls inside their OLE containers", () => {
    const doc = makeDoc([{ text: "Hello\r", compressed: true }]);
    const xls = makeWorkbook({ Sheet1: [["a"], ["b"]] }, "biff8");
    expect(sniffFile({ name: "old.doc", bytes: doc }).kind).toBe("doc");
    expect(sniffFile({ name: "old.xls", bytes: xls }).kind).toBe("xls");
    expect(refusal(() => sniffFile({ name: "old.doc", bytes: xls })).reason).toBe("content_mismatch");
    expect(refusal(() => sniffFile({ name: "old.xls", bytes: doc })).reason).toBe("content_mismatch");
    expect(refusal(() => sniffFile({ name: "old.doc", bytes: utf8("{\\rtf1 hello}") })).message).toBe(
      "old.doc is not a valid Word (.doc) file.",
    );
  });

  it("refuses a damaged OLE container", () => {
    const doc = makeDoc([{ text: "Hello\r", compressed: true }]).slice(0, 1024);
    expect(refusal(() => sniffFile({ name: "old.doc", bytes: doc })).reason).toBe("damaged");
  });
});

describe("sniffFile: text kinds", () => {
  it("decodes UTF-8 (with or without BOM) and UTF-16 with a BOM", () => {
    expect(sniffFile({ name: "a.txt", bytes: utf8("\uFEFFBonjour é") }).text).toBe("Bonjour é");
    const le = new Uint8Array([0xff, 0xfe, 0x48, 0, 0x69, 0]);
    const be = new Uint8Array([0xfe, 0xff, 0, 0x48, 0, 0x69]);
    expect(sniffFile({ name: "a.txt", bytes: le }).text).toBe("Hi");
    expect(sniffFile({ name: "a.md", bytes: be }).text).toBe("Hi");
  });

  it("refuses invalid UTF-8 and binary data", () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]); // "café" in Windows-1252
    const bad = refusal(() => sniffFile({ name: "notes.txt", bytes: latin1 }));
    expect(bad.reason).toBe("invalid_encoding");
    expect(bad.message).toBe("notes.txt is not UTF-8 text. Save it with UTF-8 encoding and upload it again.");
    expect(refusal(() => sniffFile({ name: "data.csv", bytes: new Uint8Array([0x61, 0, 0x62]) })).message).toBe(
      "data.csv contains binary data, not text.",
    );
  });

  it("refuses a .txt that is really a PDF or a zip", async () => {
    expect(refusal(() => sniffFile({ name: "a.txt", bytes: makePdf([["x"]]) })).reason).toBe("content_mismatch");
    const docx = await makeDocx([{ text: "x" }]);
    expect(refusal(() => sniffFile({ name: "a.md", bytes: docx })).reason).toBe("content_mismatch");
  });

  it("requires JSON to parse and XML to look like XML", () => {
    expect(sniffFile({ name: "a.json", bytes: utf8('{"a": [1, 2]}') }).kind).toBe("json");
    const json = refusal(() => sniffFile({ name: "a.json", bytes: utf8('{"a": ') }));
    expect(json.reason).toBe("invalid_json");
    expect(json.message).toBe("a.json is not valid JSON.");
    expect(sniffFile({ name: "a.xml", bytes: utf8('<?xml version="1.0"?><a>1</a>') }).kind).toBe("xml");
    expect(sniffFile({ name: "a.xml", bytes: utf8("\n  <!-- c --><a/>") }).kind).toBe("xml");
    expect(refusal(() => sniffFile({ name: "a.xml", bytes: utf8("just words") })).message).toBe("a.xml is not a valid XML file.");
  });
});
