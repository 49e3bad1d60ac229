import { knowledgeLimits } from "../../../contract";
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
 *
 * Hostile input is fenced: nesting past `maxNestingDepth`, more than `maxXmlElements` elements or
 * a tag longer than `maxLineChars` fails the file; every step is O(1) in the depth (the label is
 * built from the last four frames only), so the reader is linear in the text.
 */

interface Frame {
  name: string;
  fields: string[];
  text: TextPieces;
  attrs: string[];
  hasChildren: boolean;
}

/**
 * An element's text pieces, joined by spaces. Every 4,096 pieces are joined into one string, so
 * two million tiny pieces (text between two million empty tags) are not two million strings.
 */
class TextPieces {
  private pieces: string[] = [];
  private joined: string[] = [];

  get length(): number {
    return this.pieces.length + this.joined.length;
  }

  push(piece: string): void {
    this.pieces.push(piece);
    if (this.pieces.length >= 4096) {
      this.joined.push(this.pieces.join(" "));
      this.pieces = [];
    }
  }

  /** All the text, and the buffer emptied. */
  take(): string {
    const all = [...this.joined, ...this.pieces].join(" ");
    this.pieces = [];
    this.joined = [];
    return all;
  }
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

/** `name="value"` pairs of a tag, read by a linear scan (a regex would backtrack on a long junk tag). */
function parseAttributes(source: string): string[] {
  const out: string[] = [];
  const n = source.length;
  const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";
  let i = 0;
  while (i < n) {
    while (i < n && (isSpace(source[i]!) || source[i] === "/")) i++;
    const nameStart = i;
    while (i < n && !isSpace(source[i]!) && source[i] !== "=" && source[i] !== "/" && source[i] !== ">") i++;
    const name = source.slice(nameStart, i);
    while (i < n && isSpace(source[i]!)) i++;
    if (source[i] !== "=") {
      if (i === nameStart) i++;
      continue;
    }
    i++;
    while (i < n && isSpace(source[i]!)) i++;
    const quote = source[i];
    if (quote !== '"' && quote !== "'") continue;
    const end = source.indexOf(quote, i + 1);
    if (end < 0) break;
    const raw = source.slice(i + 1, end);
    i = end + 1;
    if (!name || name === "xmlns" || name.startsWith("xmlns:") || name.startsWith("xsi:")) continue;
    const value = normalizeInline(decodeEntities(raw));
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
  const guard = out.guard;
  const stack: Frame[] = [];
  let elements = 0;
  const openNames = new Map<string, number>();
  /** The last four element names of the path ending at `top` (exclusive end index). */
  const label = (top = stack.length) => {
    const names: string[] = [];
    for (let k = Math.max(0, top - 4); k < top; k++) names.push(stack[k]!.name);
    return names.join(" > ");
  };
  const flush = (frame: Frame, at: string) => {
    if (frame.fields.length) out.row(`${at} - ${frame.fields.join("; ")}`);
    frame.fields = [];
  };
  const addField = (frame: Frame, field: string, top: number) => {
    frame.fields.push(field);
    // Thousands of leaf siblings make one row per batch, not one row as long as the file.
    if (frame.fields.length >= knowledgeLimits.maxCellsPerRow) flush(frame, label(top));
  };
  const open = (name: string, attrs: string[]) => {
    if (stack.length >= knowledgeLimits.maxNestingDepth) throw guard.nestedTooDeep();
    if (++elements > knowledgeLimits.maxXmlElements) throw guard.tooManyElements();
    const parent = stack[stack.length - 1];
    if (parent && !parent.hasChildren) {
      parent.hasChildren = true;
      // The parent is a container now: its grandparent's fields so far come before its content.
      const grand = stack[stack.length - 2];
      if (grand) flush(grand, label(stack.length - 1));
      if (parent.text.length) parent.fields.push(normalizeInline(parent.text.take()));
    }
    stack.push({ name, fields: [...attrs], text: new TextPieces(), attrs, hasChildren: false });
    openNames.set(name, (openNames.get(name) ?? 0) + 1);
  };
  const close = () => {
    const at = label();
    const frame = stack.pop()!;
    openNames.set(frame.name, openNames.get(frame.name)! - 1);
    const own = normalizeInline(frame.text.take());
    const parent = stack[stack.length - 1];
    if (!frame.hasChildren) {
      const value = [own, frame.attrs.length ? `(${frame.attrs.join("; ")})` : ""].filter(Boolean).join(" ");
      if (!value) return;
      if (parent) addField(parent, `${frame.name}: ${value}`, stack.length);
      else out.paragraph(value);
      return;
    }
    if (own) frame.fields.push(own);
    flush(frame, at);
  };
  /**
   * Where the element `name` is open, or -1. `openNames` counts open elements by name, so a stray
   * end tag costs O(1); when the name is open the search ends at it and everything above is closed.
   */
  const openAt = (name: string) => {
    if (!openNames.get(name)) return -1;
    for (let k = stack.length - 1; k >= 0; k--) if (stack[k]!.name === name) return k;
    return -1;
  };

  let i = 0;
  while (i < text.length && !out.full) {
    guard.tick();
    let lt = text.indexOf("<", i);
    // A lone "<" (before a space, ">" or the end) is text: it stays in the text run around it.
    while (lt >= 0 && (lt + 1 >= text.length || /[\s>]/.test(text[lt + 1]!))) lt = text.indexOf("<", lt + 1);
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
      const at = openAt(name);
      if (at >= 0) while (stack.length > at) close();
      i = end;
    } else {
      // Lone "<" were taken as text above, before looking for a tag's end (scanning ahead from
      // each would be quadratic); every branch consumes what it scans, so the reader stays linear.
      const end = tagEnd(text, lt + 1);
      if (end - lt > knowledgeLimits.maxLineChars) throw guard.lineTooLong();
      const body = text.slice(lt + 1, end - 1);
      const selfClosing = body.endsWith("/");
      const nameMatch = /^[^\s/>]+/.exec(body);
      if (!nameMatch) {
        i = end; // "<" cut by the end of the file
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
