// widget-chunks/fr.{hash}.js: the widget's French strings, and those of a person taking over (the handoff chunk's).
import { frHandoffStrings, frWidgetStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("fr", { strings: frWidgetStrings, handoff: frHandoffStrings });
