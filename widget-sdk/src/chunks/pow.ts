// widget-chunks/pow.{hash}.js: the proof-of-work solver, loaded only when the server asks for one.
import { solve } from "./pow-solver";
import { register } from "./register";

export interface PowChunk {
  solve(challenge: string, difficulty: number): Promise<string>;
}

register("pow", { solve: (challenge, difficulty) => solve(challenge, difficulty) });
