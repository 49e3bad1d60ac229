// widget-chunks/handoff-ar.{hash}.js: a person taking over's Arabic texts, loaded by the handoff chunk for those visitors
// (apart from the ar chunk, which every Arabic visitor loads, most of whom never ask for a person).
import { arHandoffStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("handoff-ar", arHandoffStrings);
