// widget-chunks/lead-fr.{hash}.js: the lead form's French texts, loaded by the lead chunk for those visitors
// (apart from the fr chunk, which every French visitor loads, most of whom never see the form).
import { frLeadStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("lead-fr", frLeadStrings);
