import type { ExtractedDocument } from "../types";
import { BlockCollector, decodeEntities, normalizeInline } from "./collector";

/**
 * XML, read with a small tokenizer that never resolves DTDs or external entities (no XXE, no
 * entity expansion bombs: only the five predefined entities and character references are decoded).
 *
 * Output keeps element names as context: a leaf element `<title>X</title>` becomes the field
 * "title: X" of its parent, and each element with children emits its fields as one row
 * "catalog > book - id: 7; title: X; author: Y". Fields are flushed when a deeper element starts,
 * so rows come out in document order.
 */

interface Frame {
  name: string;
  fields: string[];
  text: string[];
  attrs: string[];
  hasChildren: boolean;
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

function parseAttributes(source: string): string[] {
  const out: string[] = [];
  const re = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const name = m[1]!;
    if (name === "xmlns" || name.startsWith("xmlns:") || name.startsWith("xsi:")) continue;
    const value = normalizeInline(decodeEntities(m[3] ?? m[4] ?? ""));
    if (value) out.push(`${localName(name)}: ${value}`);
  }
  return out;
}

/** Index just past the `>` that closes a markup declaration opened at `start`, skipping quoted parts and `[...]` subsets. */
function skipDeclaration(text: string, start: number): number {
  let depth = 0;
  let quote = "";
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[") depth++;
    else if (ch === "]") depth--;
    else if (ch === ">" && depth <= 0) return i + 1;
  }
  return text.length;
}

/** Index just past the `>` closing a tag opened at `start`, quotes respected. */
function tagEnd(text: string, start: number): number {
  let quote = "";
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ">") return i + 1;
  }
  return text.length;
}

export function extractXml(text: string, out = new BlockCollector()): ExtractedDocument {
  const stack: Frame[] = [];
  const path = () => stack.map((f) => f.name).slice(-4).join(" > ");
  const flush = (frame: Frame, label: string) => {
    if (frame.fields.length) out.row(`${label} - ${frame.fields.join("; ")}`);
    frame.fields = [];
  };
  const open = (name: string, attrs: string[]) => {
    const parent = stack[stack.length - 1];
    if (parent && !parent.hasChildren) {
      parent.hasChildren = true;
      // The parent is a container now: its grandparent's fields so far come before its content.
      const grand = stack[stack.length - 2];
      if (grand) flush(grand, stack.slice(0, -1).map((f) => f.name).slice(-4).join(" > "));
      if (parent.text.length) parent.fields.push(normalizeInline(parent.text.splice(0).join(" ")));
    }
    stack.push({ name, fields: [...attrs], text: [], attrs, hasChildren: false });
  };
  const close = () => {
    const label = path();
    const frame = stack.pop()!;
    const own = normalizeInline(frame.text.join(" "));
    const parent = stack[stack.length - 1];
    if (!frame.hasChildren) {
      const value = [own, frame.attrs.length ? `(${frame.attrs.join("; ")})` : ""].filter(Boolean).join(" ");
      if (!value) return;
      if (parent) parent.fields.push(`${frame.name}: ${value}`);
      else out.paragraph(value);
      return;
    }
    if (own) frame.fields.push(own);
    flush(frame, label);
  };

  let i = 0;
  while (i < text.length && !out.full) {
    const lt = text.indexOf("<", i);
    const chunk = text.slice(i, lt < 0 ? text.length : lt);
    if (chunk.trim() && stack.length) stack[stack.length - 1]!.text.push(decodeEntities(chunk));
    if (lt < 0) break;
    if (text.startsWith("<!--", lt)) {
      const end = text.indexOf("-->", lt + 4);
      i = end < 0 ? text.length : end + 3;
    } else if (text.startsWith("<![CDATA[", lt)) {
      const end = text.indexOf("]]>", lt + 9);
      const data = text.slice(lt + 9, end < 0 ? text.length : end);
      if (data.trim() && stack.length) stack[stack.length - 1]!.text.push(data);
      i = end < 0 ? text.length : end + 3;
    } else if (text.startsWith("<?", lt)) {
      const end = text.indexOf("?>", lt + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (text.startsWith("<!", lt)) {
      i = skipDeclaration(text, lt + 2);
    } else if (text[lt + 1] === "/") {
      const end = tagEnd(text, lt + 2);
      const name = localName(text.slice(lt + 2, end - 1).trim());
      // Lenient: close up to the matching element; a stray end tag is ignored.
      const at = stack.map((f) => f.name).lastIndexOf(name);
      if (at >= 0) while (stack.length > at) close();
      i = end;
    } else {
      const end = tagEnd(text, lt + 1);
      const body = text.slice(lt + 1, end - 1);
      const selfClosing = body.endsWith("/");
      const nameMatch = /^[^\s/>]+/.exec(body);
      if (!nameMatch) {
        // A lone "<" in text.
        if (stack.length) stack[stack.length - 1]!.text.push("<");
        i = lt + 1;
        continue;
      }
      open(localName(nameMatch[0]), parseAttributes(body.slice(nameMatch[0].length)));
      if (selfClosing) close();
      i = end;
    }
  }
  while (stack.length && !out.full) close();
  return out.finish();
}
