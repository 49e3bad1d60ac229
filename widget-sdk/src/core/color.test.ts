import { describe, expect, it } from "vitest";
import { publicAssistantDefaults } from "../../../contract/constants";
import { DARK_TEXT, LIGHT_TEXT, THRESHOLD, contrastRatio, luminance, parseHex, readableTextColor, safeColor } from "./color";

describe("colour contrast", () => {
  it("parses #rrggbb colours only", () => {
    expect(parseHex("#2962FF")).toEqual([41, 98, 255]);
    expect(parseHex("#ffffff")).toEqual([255, 255, 255]);
    for (const bad of ["red", "#12345", "fff", "#fff", " #ffffff", "#ffffff;}"]) expect(parseHex(bad)).toBeNull();
  });

  it("computes WCAG contrast ratios", () => {
    expect(contrastRatio("#000000", "#FFFFFF")).toBeCloseTo(21, 5);
    expect(contrastRatio("#FFFFFF", "#FFFFFF")).toBeCloseTo(1, 5);
    expect(contrastRatio("#777777", "#FFFFFF")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("nope", "#FFFFFF")).toBe(1);
  });

  it("picks white on the spec's default blue and on dark colours, dark text on light ones", () => {
    expect(readableTextColor(publicAssistantDefaults.config.customization.primaryColor)).toBe(LIGHT_TEXT);
    expect(readableTextColor("#000000")).toBe(LIGHT_TEXT);
    expect(readableTextColor("#FFEB3B")).toBe(DARK_TEXT);
    expect(readableTextColor("#FFFFFF")).toBe(DARK_TEXT);
    expect(readableTextColor("#00E5FF")).toBe(DARK_TEXT);
  });

  it("switches at the luminance where both text colours contrast equally", () => {
    const equal = Math.sqrt(1.05 * (luminance(parseHex(DARK_TEXT)!) + 0.05)) - 0.05;
    expect(THRESHOLD).toBeCloseTo(equal, 4);
    expect((1 + 0.05) / (equal + 0.05)).toBeCloseTo((equal + 0.05) / (luminance(parseHex(DARK_TEXT)!) + 0.05), 9);
  });

  it("the chosen text colour is the better of the two, and never poor", () => {
    for (let v = 0; v < 256; v += 15) {
      for (const c of [`#${v.toString(16).padStart(2, "0").repeat(3)}`, `#ff${v.toString(16).padStart(2, "0")}00`]) {
        const text = readableTextColor(c);
        const other = text === LIGHT_TEXT ? DARK_TEXT : LIGHT_TEXT;
        expect(contrastRatio(c, text)).toBeGreaterThanOrEqual(contrastRatio(c, other));
        // No colour is worse than ~4.4:1 with the better of the two (mid greys are the hardest).
        expect(contrastRatio(c, text)).toBeGreaterThanOrEqual(4.3);
      }
    }
  });

  it("falls back to the default colour for an invalid one", () => {
    expect(safeColor("javascript:1", "#2962FF")).toBe("#2962FF");
    expect(safeColor("#abcdef", "#2962FF")).toBe("#abcdef");
  });
});
