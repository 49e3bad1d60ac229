// widget-chunks/lead-en.{hash}.js: the owner's lead form (lead.ts) with its English texts, loaded by the
// core for English-speaking visitors when the form may show (not in the core: most visitors never see it).
import { enLeadStrings } from "../../../contract/widget-strings";
import { registerLead } from "./lead";

registerLead("en", enLeadStrings);
