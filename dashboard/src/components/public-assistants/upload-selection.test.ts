import { describe, expect, it } from "vitest";
import { acceptedExtensions, upload } from "../../../../contract";
import { addToQueue, fileExtension, isAcceptedFileName, planBatches, rejectionToast } from "./upload-selection";

const file = (name: string, size = 100, lastModified = 1) => ({ name, size, lastModified });

describe("file selection (spec section 5)", () => {
  it("accepts exactly the contract's extensions, in any case", () => {
    for (const ext of [".pdf", ".txt", ".doc", ".docx", ".csv", ".xls", ".xlsx", ".md", ".json", ".xml"]) {
      expect(isAcceptedFileName(`notes${ext}`)).toBe(true);
      expect(isAcceptedFileName(`NOTES${ext.toUpperCase()}`)).toBe(true);
    }
    expect(acceptedExtensions).toHaveLength(10);
    for (const bad of ["photo.png", "run.exe", "README", ".md", "archive.tar.gz", "page.html", "doc.pdf.exe"]) {
      expect(isAcceptedFileName(bad)).toBe(false);
    }
    expect(fileExtension("a.b.Md")).toBe(".md");
    expect(fileExtension(".env")).toBe("");
  });

  it("drops a wrong type and a file over 15 MB, and still queues the valid files of the same selection", () => {
    const ok = file("guide.md");
    const big = file("huge.pdf", upload.maxFileBytes + 1);
    const exact = file("edge.pdf", upload.maxFileBytes);
    const exe = file("setup.exe");
    const { queue, rejected } = addToQueue([], [exe, ok, big, exact]);
    expect(queue).toEqual([ok, exact]);
    expect(rejected).toEqual([
      { name: "setup.exe", reason: "type" },
      { name: "huge.pdf", reason: "size" },
    ]);
  });

  it("checks the type before the size", () => {
    expect(addToQueue([], [file("movie.mp4", upload.maxFileBytes * 2)]).rejected).toEqual([{ name: "movie.mp4", reason: "type" }]);
  });

  it("appends to what is queued and skips the same file picked twice", () => {
    const a = file("a.txt");
    const b = file("b.txt");
    const { queue } = addToQueue([a], [a, b, file("a.txt", 100, 2)]);
    expect(queue.map((f) => `${f.name}@${f.lastModified}`)).toEqual(["a.txt@1", "b.txt@1", "a.txt@2"]);
  });

  it("words the toast with the spec's titles and messages", () => {
    expect(rejectionToast([])).toBeNull();
    expect(rejectionToast([{ name: "x.exe", reason: "type" }])).toEqual({
      title: "Invalid file type",
      description: "x.exe is not a supported file type.",
    });
    expect(rejectionToast([{ name: "big.pdf", reason: "size" }])).toEqual({
      title: "File too large",
      description: "big.pdf exceeds the 15MB size limit.",
    });
    expect(rejectionToast([{ name: "big.pdf", reason: "size" }, { name: "x.exe", reason: "type" }])?.description).toBe(
      "big.pdf exceeds the 15MB size limit. x.exe is not a supported file type.",
    );
  });
});

describe("planBatches", () => {
  it("keeps one request within the file and byte limits, in order", () => {
    const files = Array.from({ length: 5 }, (_, i) => ({ name: String(i), size: 10 }));
    expect(planBatches(files, 2, 1000).map((b) => b.map((f) => f.name))).toEqual([["0", "1"], ["2", "3"], ["4"]]);
    expect(planBatches(files, 20, 25).map((b) => b.length)).toEqual([2, 2, 1]);
  });
  it("sends a file larger than the byte limit alone, and nothing for an empty queue", () => {
    expect(planBatches([{ size: 5 }, { size: 50 }, { size: 5 }], 20, 20).map((b) => b.map((f) => f.size))).toEqual([[5], [50], [5]]);
    expect(planBatches([])).toEqual([]);
  });
  it("defaults to the contract's per-request limits", () => {
    const many = Array.from({ length: 45 }, () => ({ size: 1 }));
    expect(planBatches(many).map((b) => b.length)).toEqual([20, 20, 5]);
    const large = Array.from({ length: 6 }, () => ({ size: upload.maxFileBytes }));
    expect(planBatches(large).map((b) => b.length)).toEqual([4, 2]);
  });
});
