import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AlarmScheduler, type AlarmJobs } from "./alarm-scheduler";
type Storage = ConstructorParameters<typeof AlarmScheduler>[0];
type Job = "a" | "b" | "c";
const T = Date.UTC(2026, 3, 1, 12, 0, 0);
const MINUTE = 60_000;

/**
 * A Durable Object's storage as the scheduler uses it: synchronous key-value entries and the one
 * alarm. `fire` is the runtime calling the object's `alarm()`: it clears the alarm first.
 */
function fakeStorage() {
  const kv = new Map<string, unknown>();
  const state = { alarm: null as number | null, alarmWrites: 0 };
  const storage: Storage = {
    kv: {
      get: <T>(key: string) => kv.get(key) as T | undefined,
      put: <T>(key: string, value: T) => void kv.set(key, value),
      delete: (key: string) => kv.delete(key),
      list: <T>(options: { prefix?: string } = {}) =>
        [...kv.entries()].filter(([key]) => key.startsWith(options.prefix ?? "")).sort(([x], [y]) => (x < y ? -1 : 1)) as [string, T][],
    },
    getAlarm: async () => state.alarm,
    setAlarm: async (at: number | Date) => {
      state.alarm = typeof at === "number" ? at : at.getTime();
      state.alarmWrites++;
    },
    deleteAlarm: async () => {
      state.alarm = null;
      state.alarmWrites++;
    },
  };
  return {
    storage,
    kv,
    state,
    /** `deleteAll`: every entry and the alarm go. */
    deleteAll() {
      kv.clear();
      state.alarm = null;
    },
    /** The runtime's alarm at `now`: the alarm is cleared, then the object's `alarm()` runs. */
    async fire(scheduler: AlarmScheduler<Job>, now: number) {
      vi.setSystemTime(now);
      state.alarm = null;
      await scheduler.run(now);
    },
  };
}

/** Jobs that record when they ran, in order. */
function recordingJobs(overrides: Partial<AlarmJobs<Job>> = {}) {
  const ran: [Job, number][] = [];
  const jobs: AlarmJobs<Job> = {
    a: (now) => void ran.push(["a", now]),
    b: (now) => void ran.push(["b", now]),
    c: (now) => void ran.push(["c", now]),
    ...overrides,
  };
  return { ran, jobs };
}

beforeEach(() => vi.useFakeTimers({ now: T }));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("AlarmScheduler: scheduling", () => {
  it("sets the storage alarm to the earliest scheduled job", async () => {
    const fake = fakeStorage();
    const scheduler = new AlarmScheduler(fake.storage, recordingJobs().jobs);
    await scheduler.schedule("a", T + 5000);
    expect(fake.state.alarm).toBe(T + 5000);
    await scheduler.schedule("b", T + 1000);
    expect(fake.state.alarm).toBe(T + 1000);
    await scheduler.schedule("c", T + 3000);
    expect(fake.state.alarm).toBe(T + 1000);
    expect([scheduler.scheduled("a"), scheduler.scheduled("b"), scheduler.scheduled("c")]).toEqual([T + 5000, T + 1000, T + 3000]);
    expect(Object.fromEntries(fake.kv)).toEqual({ "alarm:a": T + 5000, "alarm:b": T + 1000, "alarm:c": T + 3000 });
  });

  it("keeps an earlier time with if-sooner (the default) and replaces it with always", async () => {
    const fake = fakeStorage();
    const scheduler = new AlarmScheduler(fake.storage, recordingJobs().jobs);
    await scheduler.schedule("a", T + 1000);
    await scheduler.schedule("a", T + 5000);
    expect(scheduler.scheduled("a")).toBe(T + 1000);
    await scheduler.schedule("a", T + 5000, "if-sooner");
    expect(scheduler.scheduled("a")).toBe(T + 1000);
    await scheduler.schedule("a", T + 500);
    expect(scheduler.scheduled("a")).toBe(T + 500);
    expect(fake.state.alarm).toBe(T + 500);

    await scheduler.schedule("a", T + 5000, "always");
    expect(scheduler.scheduled("a")).toBe(T + 5000);
    expect(fake.kv.get("alarm:a")).toBe(T + 5000);
    expect(fake.state.alarm).toBe(T + 5000);
  });

  it("does not write the alarm again when the earliest time has not changed", async () => {
    const fake = fakeStorage();
    const scheduler = new AlarmScheduler(fake.storage, recordingJobs().jobs);
    await scheduler.schedule("a", T + 1000);
    const writes = fake.state.alarmWrites;
    await scheduler.schedule("b", T + 2000);
    await scheduler.schedule("a", T + 3000);
    expect(fake.state.alarmWrites).toBe(writes);
  });

  it("cancels a job: the alarm moves to the next one, or is deleted when none is left", async () => {
    const fake = fakeStorage();
    const scheduler = new AlarmScheduler(fake.storage, recordingJobs().jobs);
    await scheduler.schedule("a", T + 1000);
    await scheduler.schedule("b", T + 2000);
    await scheduler.cancel("a");
    expect(scheduler.scheduled("a")).toBeNull();
    expect(fake.kv.has("alarm:a")).toBe(false);
    expect(fake.state.alarm).toBe(T + 2000);
    await scheduler.cancel("b");
    expect(fake.state.alarm).toBeNull();
    await scheduler.cancel("c"); // never scheduled: nothing happens
    expect(fake.state.alarm).toBeNull();
  });
});

describe("AlarmScheduler: running", () => {
  it("runs only the jobs that are due, with the alarm's time, and re-arms for what is left", async () => {
    const fake = fakeStorage();
    const { ran, jobs } = recordingJobs();
    const scheduler = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T + 1000);
    await scheduler.schedule("b", T + 2000);
    await scheduler.schedule("c", T + 10_000);

    await fake.fire(scheduler, T + 2000);
    expect(ran).toEqual([
      ["a", T + 2000],
      ["b", T + 2000],
    ]);
    expect(scheduler.scheduled("a")).toBeNull();
    expect(scheduler.scheduled("b")).toBeNull();
    expect(scheduler.scheduled("c")).toBe(T + 10_000);
    expect([...fake.kv.keys()]).toEqual(["alarm:c"]);
    expect(fake.state.alarm).toBe(T + 10_000);
  });

  it("removes a job from the schedule before it runs, so it can schedule itself again", async () => {
    const fake = fakeStorage();
    const seen: { scheduled: number | null; stored: unknown }[] = [];
    const { jobs } = recordingJobs({
      a: async (now) => {
        seen.push({ scheduled: scheduler.scheduled("a"), stored: fake.kv.get("alarm:a") });
        await scheduler.schedule("a", now + 30_000);
      },
    });
    const scheduler: AlarmScheduler<Job> = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T + 1000);

    await fake.fire(scheduler, T + 1000);
    expect(seen).toEqual([{ scheduled: null, stored: undefined }]);
    expect(scheduler.scheduled("a")).toBe(T + 31_000);
    expect(fake.kv.get("alarm:a")).toBe(T + 31_000);
    expect(fake.state.alarm).toBe(T + 31_000);
  });

  it("deletes the storage alarm when nothing is left", async () => {
    const fake = fakeStorage();
    const { ran, jobs } = recordingJobs();
    const scheduler = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T + 1000);
    await scheduler.schedule("b", T + 1000);
    // The alarm was cleared by the runtime, then set again by hand: the scheduler deletes it.
    fake.state.alarm = T + 1000;
    await scheduler.run(T + 1000);
    expect(ran.map(([name]) => name)).toEqual(["a", "b"]);
    expect(fake.state.alarm).toBeNull();
    expect(fake.kv.size).toBe(0);
  });

  it("runs the job the alarm was armed for even when the clock reads a moment earlier, and only that one", async () => {
    const fake = fakeStorage();
    const { ran, jobs } = recordingJobs();
    const scheduler = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T + 5000);
    await scheduler.schedule("b", T + 9000);
    await fake.fire(scheduler, T + 1000);
    expect(ran.map(([name]) => name)).toEqual(["a"]);
    expect(fake.state.alarm).toBe(T + 9000);
  });

  it("retries a job that throws a minute later, and still runs the others", async () => {
    const fake = fakeStorage();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { ran, jobs } = recordingJobs({
      a: () => {
        throw new Error("the owner's room did not answer");
      },
    });
    const scheduler = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T + 1000);
    await scheduler.schedule("b", T + 1000);
    await scheduler.schedule("c", T + 120_000);

    await fake.fire(scheduler, T + 1000);
    expect(ran).toEqual([["b", T + 1000]]);
    expect(scheduler.scheduled("a")).toBe(T + 1000 + MINUTE);
    expect(fake.kv.get("alarm:a")).toBe(T + 1000 + MINUTE);
    expect(fake.state.alarm).toBe(T + 1000 + MINUTE);
    expect(logged).toHaveBeenCalledOnce();
    expect(JSON.parse(String(logged.mock.calls[0]?.[0]))).toMatchObject({ event: "alarm-job-failed", job: "a" });
  });

  it("keeps the sooner time when a job scheduled itself before it threw", async () => {
    const fake = fakeStorage();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { jobs } = recordingJobs({
      a: async (now) => {
        await scheduler.schedule("a", now + 5000);
        throw new Error("failed after rescheduling");
      },
    });
    const scheduler: AlarmScheduler<Job> = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T);
    await fake.fire(scheduler, T);
    expect(scheduler.scheduled("a")).toBe(T + 5000);
    expect(fake.state.alarm).toBe(T + 5000);
  });
});

describe("AlarmScheduler: a new instance over the same storage", () => {
  it("finds the schedule again after the object was evicted", async () => {
    const fake = fakeStorage();
    const before = new AlarmScheduler(fake.storage, recordingJobs().jobs);
    await before.schedule("a", T + 1000);
    await before.schedule("b", T + 5000);

    const { ran, jobs } = recordingJobs();
    const after = new AlarmScheduler(fake.storage, jobs);
    expect(after.scheduled("a")).toBe(T + 1000);
    expect(after.scheduled("b")).toBe(T + 5000);
    // A later time for `a` is not sooner than the stored one: kept.
    await after.schedule("a", T + 3000);
    expect(after.scheduled("a")).toBe(T + 1000);

    await fake.fire(after, T + 1000);
    expect(ran).toEqual([["a", T + 1000]]);
    expect(fake.state.alarm).toBe(T + 5000);
  });

  it("drops a stored job whose name the code no longer has", async () => {
    const fake = fakeStorage();
    fake.kv.set("alarm:retired-job", T + 500);
    fake.kv.set("alarm:a", T + 2000);
    fake.kv.set("unrelated", "kept");
    fake.state.alarm = T + 500;

    const { ran, jobs } = recordingJobs();
    const scheduler = new AlarmScheduler(fake.storage, jobs);
    expect(scheduler.scheduled("a")).toBe(T + 2000);
    expect(fake.kv.has("alarm:retired-job")).toBe(false);
    expect(fake.kv.get("unrelated")).toBe("kept");

    await fake.fire(scheduler, T + 2000);
    expect(ran).toEqual([["a", T + 2000]]);
    expect(fake.state.alarm).toBeNull();
  });

  it("drops a stored name that only an object's prototype has (not a job)", async () => {
    const fake = fakeStorage();
    fake.kv.set("alarm:toString", T + 500);
    fake.kv.set("alarm:constructor", T + 600);
    const scheduler = new AlarmScheduler(fake.storage, recordingJobs().jobs);
    await scheduler.schedule("a", T + 2000);
    expect([...fake.kv.keys()]).toEqual(["alarm:a"]);
    expect(fake.state.alarm).toBe(T + 2000);
  });
});

describe("AlarmScheduler: after deleteAll", () => {
  it("forgets the schedule and arms the storage alarm again for the next job", async () => {
    const fake = fakeStorage();
    const { ran, jobs } = recordingJobs();
    const scheduler = new AlarmScheduler(fake.storage, jobs);
    await scheduler.schedule("a", T + 1000);
    await scheduler.schedule("b", T + 4000);

    fake.deleteAll();
    scheduler.forget();
    expect(scheduler.scheduled("a")).toBeNull();
    expect(scheduler.scheduled("b")).toBeNull();

    // The same time as before: the alarm is set again, not taken for already set.
    await scheduler.schedule("a", T + 1000);
    expect(fake.state.alarm).toBe(T + 1000);
    await fake.fire(scheduler, T + 5000);
    expect(ran).toEqual([["a", T + 5000]]);
    expect(fake.state.alarm).toBeNull();
  });
});
