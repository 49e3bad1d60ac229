// widget-chunks/fr.{hash}.js: the widget's French strings (a person taking over's are handoff-fr's).
import { frWidgetStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("fr", { strings: frWidgetStrings });
