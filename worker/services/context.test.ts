import { afterEach, describe, expect, it, vi } from "vitest";
import { afterResponse, type ServiceContext } from "./context";

const ctxWith = (waitUntil?: ServiceContext["waitUntil"]) => ({ env: {}, db: {}, waitUntil }) as unknown as ServiceContext;

describe("afterResponse", () => {
  afterEach(() => vi.restoreAllMocks());

  it("hands the work to waitUntil and settles at once", async () => {
    let release!: () => void;
    const work = vi.fn(() => new Promise<void>((r) => (release = r)));
    const handed: Promise<unknown>[] = [];
    let settled = false;
    await afterResponse(ctxWith((p) => handed.push(p)), "touch-failed", work).then(() => (settled = true));
    expect(settled).toBe(true);
    expect(work).toHaveBeenCalledOnce();
    expect(handed).toHaveLength(1);
    release();
    await expect(handed[0]).resolves.toBeUndefined();
  });

  it("runs in line without an execution context", async () => {
    const order: string[] = [];
    await afterResponse(ctxWith(), "touch-failed", async () => {
      await Promise.resolve();
      order.push("work");
    });
    order.push("after");
    expect(order).toEqual(["work", "after"]);
  });

  it("logs a failure and never throws, in either mode", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const fail = () => Promise.reject(new Error("D1 down"));
    await expect(afterResponse(ctxWith(), "token-touch-failed", fail, { tokenId: "t1" })).resolves.toBeUndefined();
    const handed: Promise<unknown>[] = [];
    await afterResponse(ctxWith((p) => handed.push(p)), "token-touch-failed", fail, { tokenId: "t2" });
    await expect(handed[0]).resolves.toBeUndefined();
    expect(log.mock.calls.map((c) => JSON.parse(String(c[0])))).toEqual([
      { event: "token-touch-failed", tokenId: "t1", error: "Error: D1 down" },
      { event: "token-touch-failed", tokenId: "t2", error: "Error: D1 down" },
    ]);
  });

  it("runs in line when waitUntil refuses the work", async () => {
    let ran = false;
    await afterResponse(ctxWith(() => { throw new Error("request ended"); }), "touch-failed", async () => void (ran = true));
    expect(ran).toBe(true);
  });
});
