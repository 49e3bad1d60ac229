// widget-chunks/files.{hash}.js: reading the visitor's attachments (only sites whose owner allows
// them show the button; the chunk loads at the first file chosen), with its messages in every language.
import type { h as preactH, VNode } from "preact";
import { widgetFileStrings, type WidgetStrings } from "../../../contract/widget-strings";
import type { Controller } from "../core/controller";
import * as C from "../core/contract";
import { readAttachment } from "../core/files";
import { register } from "./register";

export interface FilesChunk {
  /** Reads `files` into `c.state.attachments`, each refusal in the notice. */
  readFiles(c: Controller, files: File[]): Promise<void>;
  /**
   * The attachments waiting to be sent (`c.state.attachments`), each its name and a button that
   * removes it (`button(label, onClick)`: the core's icon button with its close icon). Preact's `h`
   * comes from the core, as in the visitor chunk; styled here (through the CSSOM), not in the core's sheet.
   */
  chips(h: typeof preactH, c: Controller, t: WidgetStrings, button: (label: string, onClick: () => void) => VNode): VNode | null;
}

async function readFiles(c: Controller, files: File[]) {
  const t = widgetFileStrings[c.state.locale];
  let attachments = c.state.attachments;
  const errors: string[] = [];
  for (const file of files) {
    if (attachments.length >= C.maxFiles) {
      errors.push(t.tooManyFiles(C.maxFiles));
      break;
    }
    const res = await readAttachment(file, t);
    if (res.ok) attachments = [...attachments, res.file];
    else errors.push(res.error);
  }
  c.set({ attachments, notice: errors.length ? { text: errors.join(" ") } : c.state.notice });
}

// A row of their own above the input (flex-basis 100% in the composer's wrapping row): the message
// box keeps its width however many files there are, on a phone too.
const chips = (h: typeof preactH, c: Controller, t: WidgetStrings, button: (label: string, onClick: () => void) => VNode): VNode | null =>
  c.state.attachments.length
    ? (h(
        "div",
        { class: "fc", style: { flexBasis: "100%", display: "flex", flexWrap: "wrap", gap: "4px", minWidth: 0 } },
        c.state.attachments.map((f, i) =>
          h(
            "span",
            { style: { display: "flex", alignItems: "center", fontSize: "12px", background: "var(--sf)", borderRadius: "8px", paddingInlineStart: "8px", maxWidth: "100%", overflowWrap: "anywhere" } },
            f.name,
            button(widgetFileStrings[c.state.locale].removeFile(f.name), () => c.set({ attachments: c.state.attachments.filter((_, j) => j !== i) })),
          ),
        ),
      ) as VNode)
    : null;

register("files", { readFiles, chips });
