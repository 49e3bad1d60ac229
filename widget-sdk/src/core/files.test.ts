import { describe, expect, it } from "vitest";
import { publicAssistantMessages } from "../../../contract/messages";
import { upload, widget } from "../../../contract/constants";
import { widgetStrings } from "../../../contract/widget-strings";
import { readAttachment, readableExtensions } from "./files";

const t = widgetStrings.en;

describe("readAttachment", () => {
  it("reads only types the spec accepts for upload", () => {
    for (const ext of readableExtensions) expect(Object.keys(upload.accepted)).toContain(ext);
  });

  it("reads the text types", async () => {
    for (const ext of readableExtensions) {
      const res = await readAttachment(new File(["hello"], `notes${ext}`), t);
      expect(res).toEqual({ ok: true, file: { name: `notes${ext}`, text: "hello" } });
    }
  });

  it("refuses types the widget cannot read, and unknown ones, with the contract's message", async () => {
    for (const name of ["report.pdf", "cv.docx", "sheet.xlsx", "run.exe", "noext"]) {
      expect(await readAttachment(new File(["x"], name), t)).toEqual({ ok: false, error: publicAssistantMessages.invalidFileType(name) });
    }
  });

  it("refuses files over 15 MB with the contract's message", async () => {
    const big = new File([new Uint8Array(upload.maxFileBytes + 1)], "big.txt");
    expect(await readAttachment(big, t)).toEqual({ ok: false, error: publicAssistantMessages.fileTooLarge("big.txt") });
    const fr = await readAttachment(big, widgetStrings.fr);
    expect(fr.ok).toBe(false);
  });

  it("keeps only the text the server accepts", async () => {
    const res = await readAttachment(new File(["a".repeat(widget.maxFileTextChars + 50)], "long.md"), t);
    expect(res.ok && res.file.text.length).toBe(widget.maxFileTextChars);
  });
});
