import { afterEach, describe, expect, it, vi } from "vitest";
import { botDefence, errorBodySchema } from "../../contract";
import { json, randomIp } from "./helpers";
import { insightsOf } from "./insights-helpers";
import { BROWSER_UA, challengeOf, created, postSession, refusedWith, solve, defenceCounts, startWithProof, unsolved, withDefenceStore } from "./bot-defence-helpers";
import { widgetAssistant } from "./widget-helpers";

// These tests solve real proofs (16 and 18 bits: up to ~1M hashes in the worst case), seconds on a
// loaded machine: more time than the default 5 s per test, never a timed assertion.
vi.setConfig({ testTimeout: 60_000 });

/**
 * Bot defence: a proof that is forged, replayed, expired, too weak, from another
 * address or for another assistant starts no session (403 with a fresh challenge), and the owner
 * sees how many were refused.
 */

afterEach(() => {
  vi.useRealTimers();
});

const always = () => widgetAssistant({ config: { botDefence: "always" } }, { upload: false });

describe("a refused proof", () => {
  it("replayed: the same solved challenge starts one session only, the second gets a 403 with a fresh challenge", async () => {
    const { key, token, assistant } = await always();
    const ip = randomIp();
    const { proof } = await startWithProof(key, { ip });
    const fresh = await refusedWith(await postSession(key, { ip, proof }));
    expect(fresh.challenge).not.toBe(proof.challenge);
    expect(fresh.difficulty).toBe(botDefence.difficultyBits.normal);
    // The fresh challenge works (an honest widget's one retry).
    await created(await postSession(key, { ip, proof: { challenge: fresh.challenge, nonce: solve(fresh.challenge, fresh.difficulty) } }));
    expect((await insightsOf(token, assistant._id, 7)).defence).toEqual({ challenged: 1, refused: 1, required: true });
  });

  it("replayed at once: of concurrent starts with one proof, exactly one gets a session", async () => {
    const { key } = await always();
    const ip = randomIp();
    const challenge = await challengeOf(await postSession(key, { ip }));
    const proof = { challenge: challenge.challenge, nonce: solve(challenge.challenge, challenge.difficulty) };
    const statuses = await Promise.all(Array.from({ length: 6 }, () => postSession(key, { ip, proof }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
  });

  it("forged: a changed signature, a payload rewritten to ask fewer bits, or a made-up challenge", async () => {
    const { key, token, assistant } = await always();
    const ip = randomIp();
    const challenge = await challengeOf(await postSession(key, { ip }));
    const [payload, signature] = challenge.challenge.split(".") as [string, string];
    const resigned = `${payload}.${signature.slice(0, -2)}${signature.at(-2) === "A" ? "B" : "A"}${signature.at(-1)}`;
    const cheaper = `${btoa(atob(payload.replace(/-/g, "+").replace(/_/g, "/")).replace(`|${challenge.difficulty}|`, "|1|")).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.${signature}`;
    for (const forged of [resigned, cheaper, "made.up", `${payload}.`]) {
      await refusedWith(await postSession(key, { ip, proof: { challenge: forged, nonce: solve(forged, 1) } }));
    }
    expect((await insightsOf(token, assistant._id, 7)).defence.refused).toBe(4);
  });

  it("too weak: a nonce that does not reach the difficulty", async () => {
    const { key } = await always();
    const ip = randomIp();
    const challenge = await challengeOf(await postSession(key, { ip }));
    await refusedWith(await postSession(key, { ip, proof: { challenge: challenge.challenge, nonce: unsolved(challenge.challenge, challenge.difficulty) } }));
  });

  it("expired: solved after the challenge's lifetime", async () => {
    const { key } = await always();
    const ip = randomIp();
    const challenge = await challengeOf(await postSession(key, { ip }));
    const proof = { challenge: challenge.challenge, nonce: solve(challenge.challenge, challenge.difficulty) };
    // Every clock of this isolate (the worker's and the assistant's object's) moves past the expiry.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + botDefence.challengeTtlSeconds * 1000 + 1000);
    await refusedWith(await postSession(key, { ip, proof }));
  });

  it("from another address: a solved challenge is not portable", async () => {
    const { key } = await always();
    const challenge = await challengeOf(await postSession(key, { ip: "198.51.100.10" }));
    const proof = { challenge: challenge.challenge, nonce: solve(challenge.challenge, challenge.difficulty) };
    await refusedWith(await postSession(key, { ip: "198.51.100.11", proof }));
    // The same proof still works from its own address (the refusal did not spend it).
    await created(await postSession(key, { ip: "198.51.100.10", proof }));
  });

  it("for another assistant: a challenge of one assistant does not open another's", async () => {
    const a = await always();
    const b = await always();
    const ip = randomIp();
    const challenge = await challengeOf(await postSession(a.key, { ip }));
    const proof = { challenge: challenge.challenge, nonce: solve(challenge.challenge, challenge.difficulty) };
    await refusedWith(await postSession(b.key, { ip, proof }));
  });

  it("garbage of any size is a 400 (the contract's limits) or a 403, never a session or a 500", async () => {
    const { key } = await always();
    const ip = randomIp();
    for (const proof of [
      { challenge: "x".repeat(botDefence.maxChallengeChars + 1), nonce: "0" },
      { challenge: "a.b", nonce: "0".repeat(botDefence.maxNonceChars + 1) },
      { challenge: 42, nonce: "0" },
      "not an object",
    ]) {
      const res = await postSession(key, { ip, proof: proof as never });
      expect(res.status, await res.clone().text()).toBe(400);
      expect((await json(res, errorBodySchema)).code).toBe("VALIDATION_ERROR");
    }
    for (const challenge of ["", ".", "....", "🙂.🙂", "A".repeat(botDefence.maxChallengeChars)]) {
      await refusedWith(await postSession(key, { ip, proof: { challenge, nonce: "" } }));
    }
  });
});

describe("a proof that was good once", () => {
  it("verified just before its expiry but spent after it, starts one session only (no replay across the expiry)", async () => {
    const { assistant } = await always();
    const caller = { address: randomIp(), userAgent: BROWSER_UA };
    const expiresAt = Date.now() + 60_000;
    const proof = { valid: true as const, id: "review-salt", expiresAt, difficulty: botDefence.difficultyBits.normal };
    // The worker checked the signature's time before the expiry; the object spends it later.
    const passes = await withDefenceStore(assistant._id, (s) => [
      s.admitNewSession("always", caller, proof, expiresAt - 10).pass,
      s.admitNewSession("always", caller, proof, expiresAt).pass,
      s.admitNewSession("always", caller, proof, expiresAt + 5).pass,
    ]);
    expect(passes).toEqual([true, false, false]);
  });

  it("solved at the normal difficulty does not pass once a spike asks for more bits (no downgrade)", async () => {
    const { key, assistant } = await always();
    const ip = randomIp();
    const weak = await challengeOf(await postSession(key, { ip }));
    expect(weak.difficulty).toBe(botDefence.difficultyBits.normal);
    const proof = { challenge: weak.challenge, nonce: solve(weak.challenge, weak.difficulty) };
    // The address spikes while the challenge is still valid.
    await withDefenceStore(assistant._id, (s) => {
      for (let i = 0; i < botDefence.spikeThresholds.address; i++) s.countSession({ address: ip, userAgent: `bot ${i}` });
    });
    const fresh = await refusedWith(await postSession(key, { ip, proof }));
    expect(fresh.difficulty).toBe(botDefence.difficultyBits.spike);
    await created(await postSession(key, { ip, proof: { challenge: fresh.challenge, nonce: solve(fresh.challenge, fresh.difficulty) } }));
  });
});

describe("when no proof is needed", () => {
  it("a bad proof is not held against the visitor (auto mode, no spike)", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const ip = randomIp();
    await created(await postSession(key, { ip, proof: { challenge: "made.up", nonce: "0" } }));
    expect((await insightsOf(token, assistant._id, 7)).defence).toEqual({ challenged: 0, refused: 0, required: false });
  });
});

describe("bounds", () => {
  it("spent challenges are kept until they expire, and old buckets go", async () => {
    const { key, assistant } = await always();
    const ip = randomIp();
    await startWithProof(key, { ip });
    expect((await defenceCounts(assistant._id)).spent).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + botDefence.spikeWindowMs + 2 * 60_000);
    // The next spend and the next count prune what expired.
    await startWithProof(key, { ip });
    const after = await defenceCounts(assistant._id);
    expect(after.spent).toBe(1);
    // Only this minute's three counters (address, network, user agent) are left.
    expect(after.counts).toBe(3);
  });
});
