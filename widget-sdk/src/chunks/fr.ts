// widget-chunks/fr.{hash}.js: the widget's French strings.
import { frWidgetStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("fr", { strings: frWidgetStrings });
