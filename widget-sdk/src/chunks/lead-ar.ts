// widget-chunks/lead-ar.{hash}.js: the owner's lead form (lead.ts) with its Arabic texts, loaded by the
// core for Arabic-speaking visitors when the form may show (not in the ar chunk: most visitors never see it).
import { arLeadStrings } from "../../../contract/widget-strings";
import { registerLead } from "./lead";

registerLead("ar", arLeadStrings);
