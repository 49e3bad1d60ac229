import { describe, expect, it } from "vitest";
import { stripUnsafeText } from "./text";

describe("stripUnsafeText", () => {
  it("keeps ordinary text of any script as it is", () => {
    for (const text of ["Amina", "amina+shop@example.com", "Zoë Ødegaard", "أمينة", "李小龙", "emoji 👩🏽‍💻 ok", "a\u200db"]) {
      expect(stripUnsafeText(text)).toBe(text);
    }
  });

  it("turns each run of line breaks and tabs into one space", () => {
    expect(stripUnsafeText("Jane\r\nDoe")).toBe("Jane Doe");
    expect(stripUnsafeText("a@example.com\r\nBcc: b@example.com")).toBe("a@example.com Bcc: b@example.com");
    expect(stripUnsafeText("a\tb\vc\fd\u0085e\u2028f\u2029g")).toBe("a b c d e f g");
  });

  it("removes NUL, the other C0 and C1 controls and DEL", () => {
    expect(stripUnsafeText("a\u0000b\u0001c\u001bd\u001fe\u007ff\u0080g\u009fh")).toBe("abcdefgh");
  });

  it("removes bidirectional overrides, embeddings, isolates and marks", () => {
    expect(stripUnsafeText("\u202emoc.live@eve")).toBe("moc.live@eve");
    const bidi = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];
    expect(stripUnsafeText(`x${bidi.join("")}y`)).toBe("xy");
  });
});
