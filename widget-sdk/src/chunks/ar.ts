// widget-chunks/ar.{hash}.js: the widget's Arabic strings.
import { arWidgetStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("ar", { strings: arWidgetStrings });
