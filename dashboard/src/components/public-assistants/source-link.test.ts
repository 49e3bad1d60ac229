import { describe, expect, it } from "vitest";
import { sourceHref } from "./source-link";

describe("sourceHref", () => {
  it("links web pages only", () => {
    expect(sourceHref("https://example.com/help?q=1")).toBe("https://example.com/help?q=1");
    expect(sourceHref("http://example.com")).toBe("http://example.com/");
    expect(sourceHref(undefined)).toBeNull();
    expect(sourceHref("")).toBeNull();
    expect(sourceHref("javascript:alert(1)")).toBeNull();
    expect(sourceHref(" JaVaScRiPt:alert(1)")).toBeNull();
    expect(sourceHref("data:text/html,<b>x</b>")).toBeNull();
    expect(sourceHref("/relative/path")).toBeNull();
  });
});
