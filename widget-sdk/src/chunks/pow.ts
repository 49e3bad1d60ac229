// widget-chunks/pow.{hash}.js: the proof-of-work solver, loaded only when the server asks for one.
import { widgetPowStrings } from "../../../contract/widget-strings";
import type { Challenge, Result } from "../core/api";
import type { Controller } from "../core/controller";
import { solve } from "./pow-solver";
import { register } from "./register";

export interface PowChunk {
  /**
   * A refused session call (`res`) carrying a challenge: solved and `send` again with the proof, at
   * most twice while the conversation is still `epoch`'s; the last answer. Past 24 bits (16
   * normally, 18 in a spike) a page should not spend the visitor's battery: the refusal stands.
   */
  answer(c: Controller, res: Result, send: (proof: { challenge: string; nonce: string }) => Promise<Result>, epoch: number): Promise<Result>;
}

async function answer(c: Controller, res: Result, send: (proof: { challenge: string; nonce: string }) => Promise<Result>, epoch: number) {
  for (let tries = 0; !res.ok && res.challenge && res.challenge.difficulty <= 24 && tries < 2 && epoch === c.epoch; tries++) res = await send(await prove(c, res.challenge));
  return res;
}

/**
 * Solves `ch` without freezing the page. Quiet unless it takes over a second; then a status
 * line (`challengeRequired`) says what is happening until it is done.
 */
async function prove(c: Controller, ch: Challenge) {
  const slow = setTimeout(() => c.set({ status: widgetPowStrings[c.state.locale].challengeRequired }), 1000);
  try {
    return { challenge: ch.challenge, nonce: await solve(ch.challenge, ch.difficulty) };
  } finally {
    clearTimeout(slow);
    c.set({ status: null });
  }
}

register("pow", { answer });
