import { describe, expect, it } from "vitest";
import { isQaHeader, readCsv, safeCell, writeQaCsv } from "./qa-csv";

describe("qa CSV", () => {
  it("reads quotes, doubled quotes, line breaks in quotes, CRLF and a BOM, with each record's line", () => {
    const text = '\uFEFFquestion,answer,variants\r\n"Hi, there?","Say ""hello""\nthen wave",a|b\r\n\r\nplain,answer\n';
    expect(readCsv(text, 10)).toEqual({
      records: [
        { line: 1, cells: ["question", "answer", "variants"] },
        { line: 2, cells: ["Hi, there?", 'Say "hello"\nthen wave', "a|b"] },
        { line: 5, cells: ["plain", "answer"] },
      ],
      more: false,
    });
  });

  it("reports a malformed record by its line and reads on", () => {
    const { records } = readCsv('question,answer\n"open,x"y\nok,fine\nbad"quote,z\n', 10);
    expect(records).toEqual([
      { line: 1, cells: ["question", "answer"] },
      { line: 2, malformed: true },
      { line: 3, cells: ["ok", "fine"] },
      { line: 4, malformed: true },
    ]);
    expect(readCsv('q,a\n"never closed,\nmore', 10).records[1]).toEqual({ line: 2, malformed: true });
  });

  it("stops at the record cap", () => {
    expect(readCsv("a\nb\nc\n", 2)).toEqual({ records: [{ line: 1, cells: ["a"] }, { line: 2, cells: ["b"] }], more: true });
  });

  it("knows the header", () => {
    expect(isQaHeader(["Question", " answer ", "variants"])).toBe(true);
    expect(isQaHeader(["question", "answer"])).toBe(true);
    expect(isQaHeader(["answer", "question"])).toBe(false);
  });

  it("writes cells no spreadsheet runs", () => {
    expect(safeCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(safeCell("+1")).toBe("'+1");
    expect(safeCell("-2")).toBe("'-2");
    expect(safeCell("@x")).toBe("'@x");
    expect(safeCell('a "b", c')).toBe('"a ""b"", c"');
    expect(writeQaCsv([{ question: "Q?", answer: "=1+1", variants: ["a", "b"] }])).toBe("question,answer,variants\r\nQ?,'=1+1,a|b\r\n");
  });
});
