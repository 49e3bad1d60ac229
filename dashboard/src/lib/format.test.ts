import { describe, expect, it } from "vitest";
import { displayFirstName, formatTime, safeReturnTo } from "./format";
import { newGuestSessionId } from "./storage";
import { parseTheme, resolveTheme } from "../stores/theme";

describe("displayFirstName", () => {
  it("falls back to 'User'", () => {
    expect(displayFirstName({ firstName: "Ada" })).toBe("Ada");
    expect(displayFirstName({ firstName: "  " })).toBe("User");
    expect(displayFirstName(null)).toBe("User");
  });
});

describe("formatTime", () => {
  it("uses the spec's patterns", () => {
    const d = new Date(2025, 0, 5, 9, 7);
    expect(formatTime(d, "HH:mm")).toBe("09:07");
    expect(formatTime(d)).toBe("Jan 5, 2025 09:07");
  });
});

describe("safeReturnTo", () => {
  it("keeps paths inside the signed-in area", () => {
    expect(safeReturnTo("/app/settings")).toBe("/app/settings");
    expect(safeReturnTo("/app/projects/7?tab=files#top")).toBe("/app/projects/7?tab=files#top");
  });
  it("refuses other origins and other pages", () => {
    for (const bad of ["//evil.example/app", "https://evil.example/app", "/\\evil.example", "/login", "/apple", "", null, "app"]) {
      expect(safeReturnTo(bad)).toBeNull();
    }
  });
});

describe("guest session id", () => {
  it("has the form guest-{timestamp}-{random}", () => {
    expect(newGuestSessionId(1700000000000, () => 0.123456789)).toMatch(/^guest-1700000000000-[a-z0-9]+$/);
  });
});

describe("theme", () => {
  it("defaults to system and resolves it from the OS setting", () => {
    expect(parseTheme(null)).toBe("system");
    expect(parseTheme("purple")).toBe("system");
    expect(parseTheme("dark")).toBe("dark");
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
  });
});
