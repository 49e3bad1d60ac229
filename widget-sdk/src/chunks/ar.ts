// widget-chunks/ar.{hash}.js: the widget's Arabic strings, and those of a person taking over (the handoff chunk's).
import { arHandoffStrings, arWidgetStrings } from "../../../contract/widget-strings";
import { register } from "./register";

register("ar", { strings: arWidgetStrings, handoff: arHandoffStrings });
