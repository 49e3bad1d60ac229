// widget-chunks/files.{hash}.js: reading the visitor's attachments (only sites whose owner allows
// them show the button; the chunk loads at the first file chosen), with its messages in every language.
import { widgetFileStrings } from "../../../contract/widget-strings";
import type { Controller } from "../core/controller";
import * as C from "../core/contract";
import { readAttachment } from "../core/files";
import { register } from "./register";

export interface FilesChunk {
  /** Reads `files` into `c.state.attachments`, each refusal in the notice. */
  readFiles(c: Controller, files: File[]): Promise<void>;
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

register("files", { readFiles });
