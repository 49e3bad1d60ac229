import { describe, expect, it } from "vitest";
import { displayFirstName, formatBytes, formatTime, safeReturnTo } from "./format";
import { guestSession, storageKeys } from "../../../contract";
import { newGuestSessionId, readGuestSessionId } from "./storage";
import { installMemoryStorage } from "../test/memory-storage";
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

describe("formatBytes", () => {
  it("shows bytes below a kilobyte, whole", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(820)).toBe("820 B");
    expect(formatBytes(1023)).toBe("1023 B");
  });
  it("never shows a small file as nothing (what the upload queue and the Knowledge table both show)", () => {
    expect(formatBytes(37)).toBe("37 B");
    for (let bytes = 1; bytes < 5 * 1024; bytes += 7) expect(formatBytes(bytes)).not.toMatch(/^0(\.0+)? /);
  });
  it("shows KB, MB and GB with one decimal, as fits (1024-based)", () => {
    expect(formatBytes(1024)).toBe("1.0 KB");
    expect(formatBytes(12_698)).toBe("12.4 KB");
    expect(formatBytes(1024 * 1024)).toBe("1.0 MB");
    expect(formatBytes(3_250_586)).toBe("3.1 MB");
    expect(formatBytes(15_728_640)).toBe("15.0 MB");
    expect(formatBytes(5 * 1024 ** 3)).toBe("5.0 GB");
    expect(formatBytes(3 * 1024 ** 4)).toBe("3072.0 GB");
  });
  it("moves up a unit rather than show 1024.0", () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe("1.0 MB");
    expect(formatBytes(1024 * 1023.9)).toBe("1023.9 KB");
  });
  it("says 'Size unknown' without a usable size", () => {
    for (const bad of [undefined, null, Number.NaN, -1, Number.POSITIVE_INFINITY]) expect(formatBytes(bad)).toBe("Size unknown");
  });
});

describe("formatTime elsewhere pattern", () => {
  it("formats 'MMM d, yyyy HH:mm' with a two-digit day and midnight", () => {
    expect(formatTime(new Date(2024, 11, 31, 0, 0), "MMM d, yyyy HH:mm")).toBe("Dec 31, 2024 00:00");
    expect(formatTime(new Date(2026, 5, 9, 23, 59).getTime())).toBe("Jun 9, 2026 23:59");
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
  // The random part comes from crypto.getRandomValues and is at least 16 characters.
  it("has the form guest-{timestamp}-{random}, the server's pattern, and a CSPRNG random part", () => {
    const id = newGuestSessionId(1700000000000);
    expect(id).toMatch(/^guest-1700000000000-[a-z0-9]+$/);
    expect(id).toMatch(guestSession.idPattern);
    expect(id.split("-")[2]).toHaveLength(guestSession.randomChars);
    expect(newGuestSessionId(1700000000000)).not.toBe(id);
  });

  it("draws again rather than bias the characters", () => {
    // 252 and above are past the last whole multiple of 36: skipped, never mapped to a character.
    let call = 0;
    const fill = (bytes: Uint8Array) => bytes.fill(call++ === 0 ? 255 : 1);
    expect(newGuestSessionId(1700000000000, fill)).toBe(`guest-1700000000000-${"b".repeat(guestSession.randomChars)}`);
    expect(call).toBe(2);
  });

  it("replaces a stored id the server no longer accepts", () => {
    const { session } = installMemoryStorage();
    session.setItem(storageKeys.guestSessionId, "guest-1700000000000-abcd");
    const id = readGuestSessionId();
    expect(id).toMatch(guestSession.idPattern);
    expect(session.getItem(storageKeys.guestSessionId)).toBe(id);
    expect(readGuestSessionId()).toBe(id);
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
