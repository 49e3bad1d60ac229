import { describe, expect, it } from "vitest";
import type { Env } from "../env";

/** A stand-in for the D1 binding: methods on prototypes, as the real classes have them. */
class FakeStatement {
  constructor(readonly statement: string) {}
  async all() {
    return { results: [this.statement] };
  }
  async first() {
    return this.statement;
  }
  async run() {
    return {};
  }
  async raw() {
    return [];
  }
}
class FakeDb {
  prepare(sql: string) {
    return new FakeStatement(sql);
  }
  async batch(statements: FakeStatement[]) {
    return statements.map(() => ({}));
  }
  async exec(sql: string) {
    return { count: sql.length };
  }
}

describe("D1 latency mode", () => {
  it("does nothing outside local mode or without the variable", async () => {
    const { applyD1Latency, d1Log } = await import("./latency");
    applyD1Latency({ ENVIRONMENT: "production", TALA_D1_DELAY_MS: "60", DB: new FakeDb() } as unknown as Env);
    applyD1Latency({ ENVIRONMENT: "local", DB: new FakeDb() } as unknown as Env);
    expect(d1Log()).toBeNull();
  });

  it("delays and records every query of the isolate, a batch as one round trip", async () => {
    const { applyD1Latency, d1Log, resetD1Log } = await import("./latency");
    const db = new FakeDb();
    applyD1Latency({ ENVIRONMENT: "local", TALA_D1_DELAY_MS: "20", DB: db } as unknown as Env);
    resetD1Log();
    const started = Date.now();
    expect(await new FakeDb().prepare("SELECT 2").first()).toBe("SELECT 2");
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    await db.batch([db.prepare("A"), db.prepare("B")]);
    expect(d1Log()).toMatchObject({ delayMs: 20, queries: [{ sql: "SELECT 2" }, { sql: "batch of 2" }] });
  });
});
