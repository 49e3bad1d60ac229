// widget-chunks/lead-fr.{hash}.js: the owner's lead form (lead.ts) with its French texts, loaded by the
// core for French-speaking visitors when the form may show (not in the fr chunk: most visitors never see it).
import { frLeadStrings } from "../../../contract/widget-strings";
import { registerLead } from "./lead";

registerLead("fr", frLeadStrings);
