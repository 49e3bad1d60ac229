import { afterEach, describe, expect, it, vi } from "vitest";
import { KeyDirectory } from "./key-directory";

afterEach(() => {
  vi.useRealTimers();
});

describe("KeyDirectory", () => {
  it("keeps at most `max` entries, the oldest remembered going first", () => {
    const directory = new KeyDirectory<string>(2);
    directory.remember("a", "A");
    directory.remember("b", "B");
    directory.remember("a", "A2"); // remembered again: now the newest
    directory.remember("c", "C");
    expect([directory.get("a"), directory.get("b"), directory.get("c")]).toEqual(["A2", undefined, "C"]);
  });

  it("with maxAgeMs, an entry older than that is no longer answered (and is dropped); remembering again renews it", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const directory = new KeyDirectory<string>(10, 60_000);
    directory.remember("k", "A");
    vi.setSystemTime(1_060_000);
    expect(directory.get("k")).toBe("A");
    vi.setSystemTime(1_060_001);
    expect(directory.get("k")).toBeUndefined();
    directory.remember("k", "A");
    expect(directory.get("k")).toBe("A");
  });

  it("without maxAgeMs, entries never expire", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(0);
    const directory = new KeyDirectory<string>(10);
    directory.remember("k", "A");
    vi.setSystemTime(10 ** 12);
    expect(directory.get("k")).toBe("A");
  });
});
