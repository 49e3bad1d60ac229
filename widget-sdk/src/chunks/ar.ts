// widget-chunks/ar.{hash}.js: the widget's Arabic strings (a person taking over's are handoff-ar's).
import { arWidgetStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("ar", { strings: arWidgetStrings });
