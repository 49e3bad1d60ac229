import { describe, expect, it } from "vitest";
import { widgetLocales, widgetStrings } from "../../../contract/widget-strings";
import { isRtl, pickLocale } from "./locale";

describe("pickLocale", () => {
  it("takes the host's choice first", () => {
    expect(pickLocale("fr", "ar", ["en-US"])).toBe("fr");
  });

  it("reads a region or script subtag's language, in any case", () => {
    expect(pickLocale("AR-ma")).toBe("ar");
    expect(pickLocale("fr_CA")).toBe("fr");
  });

  it("skips unsupported and empty candidates: html lang, then the browser's list", () => {
    expect(pickLocale(undefined, "", "de-DE", ["es", "fr-BE", "en"])).toBe("fr");
    expect(pickLocale(null, "ar")).toBe("ar");
  });

  it("falls back to English", () => {
    expect(pickLocale(undefined, "de", ["ja"], "zh")).toBe("en");
    expect(pickLocale()).toBe("en");
  });

  it("knows Arabic is right to left", () => {
    expect(isRtl("ar")).toBe(true);
    expect(isRtl("fr")).toBe(false);
  });

  it("every language has every string", () => {
    const keys = Object.keys(widgetStrings.en).sort();
    for (const locale of widgetLocales) expect(Object.keys(widgetStrings[locale]).sort()).toEqual(keys);
  });
});
