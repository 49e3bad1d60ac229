// widget-chunks/lead-ar.{hash}.js: the lead form's Arabic texts, loaded by the lead chunk for those visitors
// (apart from the ar chunk, which every Arabic visitor loads, most of whom never see the form).
import { arLeadStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("lead-ar", arLeadStrings);
