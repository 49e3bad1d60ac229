/**
 * Named alarms over a Durable Object's single alarm. Each job schedules its own name; the
 * object's `alarm()` calls `run`, which runs every job that is due and sets the storage alarm to
 * the earliest one left. The schedule lives in the object's key-value storage (synchronous on
 * SQLite-backed objects) and in memory, so scheduling on a hot path reads nothing.
 *
 * A job that throws is retried a minute later (logged); one job's failure never keeps another
 * from running. `deleteAll` erases the schedule with everything else: call `forget` after it.
 * No import from `cloudflare:workers`.
 */
const PREFIX = "alarm:";
const RETRY_MS = 60_000;

type Storage = Pick<DurableObjectStorage, "kv" | "getAlarm" | "setAlarm" | "deleteAlarm">;

export type AlarmJobs<Name extends string> = Record<Name, (now: number) => Promise<void> | void>;

export class AlarmScheduler<Name extends string> {
  private byName: Map<Name, number> | null = null;
  /** The storage alarm as this instance last set it (undefined: not read yet). */
  private armedAt: number | null | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly jobs: AlarmJobs<Name>,
  ) {}

  /**
   * Runs `name` at `at`. `if-sooner` (the default) keeps an earlier time already scheduled;
   * `always` replaces it.
   */
  async schedule(name: Name, at: number, mode: "if-sooner" | "always" = "if-sooner"): Promise<void> {
    const current = this.entries().get(name);
    if (mode === "if-sooner" && current !== undefined && current <= at) return;
    this.entries().set(name, at);
    this.storage.kv.put(PREFIX + name, at);
    await this.arm();
  }

  /** Whether any job is scheduled (none while the storage alarm fires: one set by a version before named alarms). */
  isEmpty(): boolean {
    return this.entries().size === 0;
  }

  /** When `name` is due next, or null. */
  scheduled(name: Name): number | null {
    return this.entries().get(name) ?? null;
  }

  async cancel(name: Name): Promise<void> {
    if (!this.entries().delete(name)) return;
    this.storage.kv.delete(PREFIX + name);
    await this.arm();
  }

  /** The object's `alarm()`: every due job, each removed from the schedule before it runs (it may schedule itself again). */
  async run(now = Date.now()): Promise<void> {
    // The storage alarm is always armed for the earliest job, so when it fires that job is due,
    // even if this clock reads a moment earlier than the one that armed it.
    const earliest = Math.min(...this.entries().values());
    const firedFor = Number.isFinite(earliest) ? Math.max(now, earliest) : now;
    const due = [...this.entries()].filter(([, at]) => at <= firedFor).map(([name]) => name);
    for (const name of due) {
      this.entries().delete(name);
      this.storage.kv.delete(PREFIX + name);
    }
    // The runtime clears the alarm before calling `alarm()`: what is left must be armed again.
    this.armedAt = null;
    for (const name of due) {
      try {
        await this.jobs[name](now);
      } catch (error) {
        console.error(JSON.stringify({ event: "alarm-job-failed", job: name, error: String(error) }));
        await this.schedule(name, Date.now() + RETRY_MS);
      }
    }
    await this.arm();
  }

  /** After `deleteAll`: nothing is scheduled any more. */
  forget() {
    this.byName = new Map();
    this.armedAt = null;
  }

  private entries(): Map<Name, number> {
    if (this.byName) return this.byName;
    this.byName = new Map();
    for (const [key, at] of this.storage.kv.list<number>({ prefix: PREFIX })) {
      const name = key.slice(PREFIX.length) as Name;
      // Own keys only: `in` would take a stored "toString" for a job.
      if (Object.hasOwn(this.jobs, name)) this.byName.set(name, at);
      else this.storage.kv.delete(key); // a job this version no longer has
    }
    return this.byName;
  }

  /** The storage alarm at the earliest scheduled job (none: deleted). */
  private async arm() {
    const next = Math.min(...this.entries().values());
    const want = Number.isFinite(next) ? next : null;
    this.armedAt ??= await this.storage.getAlarm();
    if (want === this.armedAt) return;
    if (want === null) await this.storage.deleteAlarm();
    else await this.storage.setAlarm(want);
    this.armedAt = want;
  }
}
