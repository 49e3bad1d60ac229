import { describe, expect, it, vi } from "vitest";
import { botDefence } from "../../contract";
import { call, json, randomIp } from "./helpers";
import { insightsOf } from "./insights-helpers";
import { BROWSER_UA, challengeOf, created, postSession, solve, startWithProof, withDefenceStore } from "./bot-defence-helpers";
import { sendOverSse, sseFrames, widgetAssistant } from "./widget-helpers";

// These tests solve real proofs (16 and 18 bits: up to ~1M hashes in the worst case), seconds on a
// loaded machine: more time than the default 5 s per test, never a timed assertion.
vi.setConfig({ testTimeout: 60_000 });

/** Bot defence: when a widget session needs a proof-of-work, and what an honest widget gets. */

describe("mode always", () => {
  it("asks every new session for a proof (428 with a challenge), and the solved challenge starts it (201)", async () => {
    const { key, token, assistant } = await widgetAssistant({ config: { botDefence: "always" } }, { upload: false });
    const ip = randomIp();
    const challenge = await challengeOf(await postSession(key, { ip }));
    expect(challenge.difficulty).toBe(botDefence.difficultyBits.normal);
    expect(challenge.challenge.length).toBeLessThanOrEqual(botDefence.maxChallengeChars);
    const nonce = solve(challenge.challenge, challenge.difficulty);
    expect(nonce.length).toBeLessThanOrEqual(botDefence.maxNonceChars);
    const sessionId = await created(await postSession(key, { ip, proof: { challenge: challenge.challenge, nonce } }));
    // The session works like any other.
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "Hello [[tokens:1]]" }, { ip }));
    expect(frames.at(-1)?.event).toBe("remaining-messages");

    // A page on another site can read the 428 and the 201 (CORS reflects its Origin on both).
    const origin = "https://shop.example";
    const asked = await postSession(key, { ip, origin });
    expect(asked.headers.get("access-control-allow-origin")).toBe(origin);
    const again = await challengeOf(asked);
    const answered = await postSession(key, { ip, origin, proof: { challenge: again.challenge, nonce: solve(again.challenge, again.difficulty) } });
    expect(answered.headers.get("access-control-allow-origin")).toBe(origin);
    await created(answered);

    // The owner sees it: two sessions challenged, none refused, a proof required for everybody.
    const insights = await insightsOf(token, assistant._id, 30);
    expect(insights.defence).toEqual({ challenged: 2, refused: 0, required: true });
  });

  it("never asks to resume an open session, with or without a proof", async () => {
    const { key } = await widgetAssistant({ config: { botDefence: "always" } }, { upload: false });
    const ip = randomIp();
    const { sessionId } = await startWithProof(key, { ip });
    for (const from of [ip, randomIp()]) {
      const res = await postSession(key, { ip: from, visitorSessionId: sessionId });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as { sessionId: string }).sessionId).toBe(sessionId);
    }
    // An unknown session id is a new session: it needs the proof.
    await challengeOf(await postSession(key, { ip, visitorSessionId: crypto.randomUUID() }));
  });

  it("reads the mode the owner sets: switching to always and back to auto", async () => {
    const { key, token, assistant } = await widgetAssistant({}, { upload: false });
    const ip = randomIp();
    await created(await postSession(key, { ip }));
    const put = (mode: string) => call(`/api/public-assistants/${assistant._id}`, { method: "PUT", token, json: { config: { botDefence: mode } } });
    expect((await put("always")).status).toBe(200);
    await challengeOf(await postSession(key, { ip }));
    expect((await insightsOf(token, assistant._id, 7)).defence).toEqual({ challenged: 1, refused: 0, required: true });
    expect((await put("auto")).status).toBe(200);
    await created(await postSession(key, { ip }));
    expect((await insightsOf(token, assistant._id, 7)).defence).toEqual({ challenged: 1, refused: 0, required: false });
  });
});

describe("mode auto (the default)", () => {
  it("asks nothing below the address threshold, then asks with the spike difficulty; a solved proof still starts a session", async () => {
    const { key, assistant } = await widgetAssistant({}, { upload: false });
    expect(assistant.config.botDefence).toBe("auto");
    const ip = randomIp();
    const { address } = botDefence.spikeThresholds;
    for (let i = 0; i < address; i++) await created(await postSession(key, { ip }));
    const challenge = await challengeOf(await postSession(key, { ip }));
    expect(challenge.difficulty).toBe(botDefence.difficultyBits.spike);
    await created(await postSession(key, { ip, proof: { challenge: challenge.challenge, nonce: solve(challenge.challenge, challenge.difficulty) } }));
    // Another address (another /24 too) is not affected.
    await created(await postSession(key, { ip: randomIp() }));
  });

  it("counts concurrent starts exactly: of a burst from one address, the threshold's worth pass and the rest are asked", async () => {
    const { key } = await widgetAssistant({}, { upload: false });
    const ip = randomIp();
    const n = botDefence.spikeThresholds.address + 5;
    const statuses = await Promise.all(Array.from({ length: n }, () => postSession(key, { ip }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(botDefence.spikeThresholds.address);
    expect(statuses.filter((s) => s === 428)).toHaveLength(5);
  });

  it("asks when one /24 spikes (many addresses), or one user agent, or one address's messages", async () => {
    const { key, assistant } = await widgetAssistant({ config: { maxMessagesPerSession: 50 } }, { upload: false });
    // A /24 just under its threshold (seeded in the object's counters), then one more session from it.
    const net = `172.${Math.floor(Math.random() * 15) + 16}.${Math.floor(Math.random() * 254) + 1}`;
    await withDefenceStore(assistant._id, (store) => {
      for (let i = 0; i < botDefence.spikeThresholds.network - 1; i++) store.countSession({ address: `${net}.${(i % 250) + 1}`, userAgent: `agent ${i}` });
    });
    await created(await postSession(key, { ip: `${net}.251` }));
    await challengeOf(await postSession(key, { ip: `${net}.252` }));

    // One user agent across many networks.
    const botUa = `scraper/${crypto.randomUUID()}`;
    await withDefenceStore(assistant._id, (store) => {
      for (let i = 0; i < botDefence.spikeThresholds.userAgent; i++) store.countSession({ address: `10.${i % 250}.${Math.floor(i / 250)}.3`, userAgent: botUa });
    });
    await challengeOf(await postSession(key, { ip: randomIp(), userAgent: botUa }));
    await created(await postSession(key, { ip: randomIp(), userAgent: BROWSER_UA }));

    // One address's messages: real turns count (beginTurn), seeded up to one short of the threshold.
    const ip = randomIp();
    const sessionId = await created(await postSession(key, { ip }));
    await withDefenceStore(assistant._id, (store) => {
      for (let i = 0; i < botDefence.messageSpikeThreshold - 1; i++) store.countMessage(ip);
    });
    await created(await postSession(key, { ip }));
    const frames = await sseFrames(await sendOverSse(key, sessionId, { content: "One more message [[tokens:1]]" }, { ip }));
    expect(frames.at(-1)?.event).toBe("remaining-messages");
    await challengeOf(await postSession(key, { ip }));
  });
});

describe("the owner's counts", () => {
  it("are per period and start at zero", async () => {
    const { token, assistant } = await widgetAssistant({}, { upload: false });
    const insights = await insightsOf(token, assistant._id, 7);
    expect(insights.defence).toEqual({ challenged: 0, refused: 0, required: false });
    // The route answers the contract's shape.
    const res = await call(`/api/public-assistants/${assistant._id}/insights?days=90`, { token });
    expect(((await json(res)) as { defence: unknown }).defence).toEqual({ challenged: 0, refused: 0, required: false });
  });
});
