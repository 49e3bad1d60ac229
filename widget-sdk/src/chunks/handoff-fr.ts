// widget-chunks/handoff-fr.{hash}.js: a person taking over's French texts, loaded by the handoff chunk for those visitors
// (apart from the fr chunk, which every French visitor loads, most of whom never ask for a person).
import { frHandoffStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("handoff-fr", frHandoffStrings);
