import { describe, expect, it, vi } from "vitest";
import { widgetSdkMessages } from "../../contract/widget-strings";
import { createFacade, type Scheduler } from "./facade";
import type { CoreEmit, CoreFactory, CoreHandle, TalaOptions } from "./types";

const options: TalaOptions = { apiKey: "tala_pk_x", host: "https://tala.example/" };

/** A core whose loading the test controls, recording every call it receives. */
function harness() {
  const calls: string[] = [];
  let emit: CoreEmit | null = null;
  let resolve!: (f: CoreFactory) => void;
  let reject!: () => void;
  const handle: CoreHandle = {
    open: () => calls.push("open"),
    close: () => calls.push("close"),
    toggle: () => calls.push("toggle"),
    setLocale: (l) => calls.push(`setLocale:${l}`),
    identify: (token) => calls.push(`identify:${token}`),
    logout: () => calls.push("logout"),
    destroy: () => calls.push("destroy"),
  };
  const factory = vi.fn<CoreFactory>((opts, e) => {
    calls.push(`mount:${opts.host}`);
    emit = e;
    return handle;
  });
  const loadCore = vi.fn(() => new Promise<CoreFactory>((res, rej) => ((resolve = res), (reject = () => rej(new Error("x"))))));
  let start: (() => void) | null = null;
  const schedule: Scheduler = (s) => {
    start = s;
    return () => (start = null);
  };
  return { calls, factory, loadCore, schedule, load: () => resolve(factory), fail: () => reject(), idle: () => start?.(), emit: () => emit! };
}
const flush = () => new Promise((r) => setTimeout(r, 0));

describe("createFacade", () => {
  it("replays calls made before the core loaded, in order", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    tala.init(options);
    tala.setLocale("fr");
    tala.close();
    tala.setLocale("ar");
    expect(h.loadCore).not.toHaveBeenCalled(); // waits for idle or interaction
    h.idle();
    expect(h.loadCore).toHaveBeenCalledTimes(1);
    h.load();
    await flush();
    expect(h.calls).toEqual(["mount:https://tala.example", "setLocale:fr", "close", "setLocale:ar"]);
    tala.toggle();
    expect(h.calls.at(-1)).toBe("toggle");
  });

  it("loads at once when the widget is opened before idle, and honours init's open", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    tala.init({ ...options, open: true });
    tala.open();
    expect(h.loadCore).toHaveBeenCalledTimes(1);
    h.idle(); // cancelled: no second load
    expect(h.loadCore).toHaveBeenCalledTimes(1);
    h.load();
    await flush();
    expect(h.calls).toEqual(["mount:https://tala.example", "open", "open"]);
  });

  it("ignores calls before init and never throws", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    expect(() => {
      tala.open();
      tala.destroy();
      tala.on("open", null as never);
      tala.init(undefined as never);
      tala.init({ apiKey: "", host: "" });
    }).not.toThrow();
    expect(h.loadCore).not.toHaveBeenCalled();
  });

  it("reports a missing key or host, and a core that fails to load, as error events", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    const errors: string[] = [];
    tala.on("error", (e) => errors.push(e.error));
    tala.init({ apiKey: "", host: "x" });
    tala.init(options);
    tala.open();
    h.fail();
    await flush();
    expect(errors).toEqual([widgetSdkMessages.initNeedsKeyAndHost, widgetSdkMessages.loadFailed]);
  });

  it("delivers the core's events to listeners, isolating a failing one, and stops after off", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    const seen: string[] = [];
    const listener = () => seen.push("second");
    tala.on("open", () => {
      throw new Error("host bug");
    });
    tala.on("open", listener);
    tala.init(options);
    tala.open();
    h.load();
    await flush();
    h.emit()("open", undefined);
    tala.off("open", listener);
    h.emit()("open", undefined);
    expect(seen).toEqual(["second"]);
  });

  it("destroy before the core lands drops it; destroy after removes it; init works again", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    tala.init(options);
    tala.open();
    tala.destroy();
    h.load();
    await flush();
    expect(h.factory).not.toHaveBeenCalled();

    const h2 = harness();
    const tala2 = createFacade(h2.loadCore, h2.schedule);
    tala2.init(options);
    tala2.open();
    h2.load();
    await flush();
    tala2.destroy();
    tala2.open(); // after destroy: nothing
    expect(h2.calls).toEqual(["mount:https://tala.example", "open", "destroy"]);
    tala2.init(options);
    h2.idle();
    h2.load();
    await flush();
    expect(h2.factory).toHaveBeenCalledTimes(2);
  });

  it("a core that throws while mounting becomes an error event", async () => {
    const tala = createFacade(async () => () => {
      throw new Error("boom");
    });
    const errors: string[] = [];
    tala.on("error", (e) => errors.push(e.error));
    tala.init(options);
    await flush();
    expect(errors).toEqual([widgetSdkMessages.loadFailed]);
    expect(() => tala.open()).not.toThrow();
  });

  it("identify/logout before the core loads set the token it starts with; after, they reach the core", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    tala.init({ ...options, userToken: "a.b.c" });
    tala.logout();
    tala.identify("d.e.f");
    h.idle();
    h.load();
    await flush();
    expect(h.factory.mock.calls[0]![0].userToken).toBe("d.e.f");
    expect(h.calls).toEqual(["mount:https://tala.example"]);
    tala.identify("g.h.i");
    tala.logout();
    expect(h.calls.slice(1)).toEqual(["identify:g.h.i", "logout"]);
  });

  it("identify's refresh callback: kept for the core before it loads (logout keeps it too), handed to it after", async () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    const refresh = () => "new.token.x";
    tala.init(options);
    tala.identify("a.b.c", refresh);
    h.idle();
    h.load();
    await flush();
    expect(h.factory.mock.calls[0]![0]).toMatchObject({ userToken: "a.b.c", refreshToken: refresh });
    const seen: unknown[] = [];
    h.factory.mock.results[0]!.value.identify = (...args: unknown[]) => seen.push(args);
    tala.identify("d.e.f", refresh);
    expect(seen).toEqual([["d.e.f", refresh]]);
  });

  it("init's open loads the core at once, as open() does, without waiting for idle", () => {
    const h = harness();
    const tala = createFacade(h.loadCore, h.schedule);
    tala.init({ ...options, open: true });
    expect(h.loadCore).toHaveBeenCalledTimes(1);
    h.idle(); // cancelled: no second load
    expect(h.loadCore).toHaveBeenCalledTimes(1);
  });
});
