// widget-chunks/pow.{hash}.js: the proof-of-work solver, loaded only when the server asks for one.
import { widgetPowStrings } from "../../../contract/widget-strings";
import type { Challenge } from "../core/api";
import type { Controller } from "../core/controller";
import { solve } from "./pow-solver";
import { register } from "./register";

export interface PowChunk {
  /**
   * Solves `ch` without freezing the page. Quiet unless it takes over a second; then a status
   * line (`challengeRequired`) says what is happening until it is done.
   */
  prove(c: Controller, ch: Challenge): Promise<{ challenge: string; nonce: string }>;
}

async function prove(c: Controller, ch: Challenge) {
  const slow = setTimeout(() => c.set({ status: widgetPowStrings[c.state.locale].challengeRequired }), 1000);
  try {
    return { challenge: ch.challenge, nonce: await solve(ch.challenge, ch.difficulty) };
  } finally {
    clearTimeout(slow);
    c.set({ status: null });
  }
}

register("pow", { prove });
