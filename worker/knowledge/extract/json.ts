import { knowledgeLimits, knowledgeMessages } from "../../../contract";
import { KnowledgeError } from "../errors";
import type { ExtractedDocument } from "../types";
import { BlockCollector } from "./collector";

/** Nesting deeper than this is summarised, so a crafted file cannot exhaust the stack. */
const MAX_DEPTH = 64;
/** A string longer than this is running text: it becomes a paragraph the chunker may split. */
const LONG_STRING = 200;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isContainer = (v: Json): v is Json[] | { [key: string]: Json } => typeof v === "object" && v !== null;
const isShort = (v: Json) => !isContainer(v) && !(typeof v === "string" && v.length > LONG_STRING);
/** Short scalars, and short lists of them (tags, ids), stay inside their record as one field. */
const isInline = (v: Json) => isShort(v) || (Array.isArray(v) && v.length <= 20 && v.every(isShort));
const scalar = (v: Json): string => (v === null ? "null" : Array.isArray(v) ? v.map(scalar).join(", ") : String(v));
const childPath = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/**
 * A container larger than this is not parsed whole: its elements are found by a light scanner and
 * parsed one at a time, so a 15 MB export never becomes a 100 MB object tree.
 */
const SLICE_CHARS = 1_000_000;

const invalid = (name: string, cause?: unknown) => new KnowledgeError("invalid_json", knowledgeMessages.invalidJson(name), { cause });

function parse(text: string, name: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw invalid(name, error);
  }
}

/**
 * JSON, flattened for search: an object whose values are all short scalars is one row
 * "path - key: value; key: value"; an array of scalars is one row "path: a, b, c"; long strings
 * are paragraphs "path: text"; nested containers recurse. The keys of a top-level object that
 * hold containers become headings, so chunks carry them as context. Large containers are walked
 * element by element (see `SLICE_CHARS`) with the same output.
 */
export function extractJson(text: string, name: string, out = new BlockCollector()): ExtractedDocument {
  if (nestingDepth(text, knowledgeLimits.maxNestingDepth) > knowledgeLimits.maxNestingDepth) throw out.guard.nestedTooDeep();
  const start = skipSpace(text, 0);
  let end = text.length;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  const first = text[start];
  if (first !== "{" && first !== "[") {
    const value = parse(text, name);
    out.paragraph(scalar(value));
    return out.finish();
  }
  if (end - start <= SLICE_CHARS) {
    emitContainer(parse(text, name) as Json[] | { [key: string]: Json }, out);
  } else {
    if (valueEnd(text, start, name) !== end) throw invalid(name);
    walkSliced(text, start, name, "", 0, out);
  }
  return out.finish();
}

/** A parsed root container: top-level keys holding containers become headings. */
function emitContainer(root: Json[] | { [key: string]: Json }, out: BlockCollector): void {
  if (Array.isArray(root) || Object.values(root).every(isInline)) {
    walk(root, "", 0, out);
    return;
  }
  const pending: string[] = [];
  for (const [key, value] of Object.entries(root)) {
    if (out.full) break;
    if (isInline(value)) {
      pending.push(`${key}: ${scalar(value)}`);
      continue;
    }
    if (pending.length) out.row(pending.splice(0).join("; "));
    if (isContainer(value)) {
      out.heading(key, 1);
      walk(value, key, 1, out);
    } else out.paragraph(`${key}: ${scalar(value)}`);
  }
  if (pending.length) out.row(pending.join("; "));
}

/**
 * The streaming twin of `emitContainer`/`walk` for a container too large to parse: each element
 * is parsed alone (or walked the same way when it is itself too large).
 */
function walkSliced(text: string, start: number, name: string, path: string, depth: number, out: BlockCollector): void {
  const isArray = text[start] === "[";
  const isRoot = depth === 0 && !isArray;
  const label = path ? `${path} - ` : "";
  let fields: string[] = [];
  let scalars: string[] = [];
  const flush = () => {
    if (fields.length) out.row((isRoot ? "" : label) + fields.join("; "));
    if (scalars.length) out.row(`${path || "items"}: ${scalars.join(", ")}`);
    fields = [];
    scalars = [];
  };
  if (depth >= MAX_DEPTH) {
    // Each sliced level re-scans its element: summarised like `walk`, so the scans stay few.
    out.row(`${path}: (nested data omitted)`);
    return;
  }
  for (const element of elements(text, start, name)) {
    out.guard.tick();
    if (out.full) return;
    const key = isArray ? element.index : element.key!;
    const elementPath = depth === 0 && !isArray ? String(key) : childPath(path, key);
    const c = text[element.from];
    const big = (c === "{" || c === "[") && element.to - element.from > SLICE_CHARS;
    const value = big ? null : parse(text.slice(element.from, element.to), name);
    if (!big && (isArray ? isShort(value!) : isInline(value!))) {
      if (isArray) scalars.push(scalar(value!));
      else fields.push(`${key}: ${scalar(value!)}`);
      continue;
    }
    flush();
    if (isRoot && (big || isContainer(value!))) out.heading(String(key), 1);
    if (big) walkSliced(text, element.from, name, elementPath, depth + 1, out);
    else if (isContainer(value!)) walk(value!, elementPath, depth + 1, out);
    else out.paragraph(`${elementPath}: ${scalar(value!)}`);
  }
  flush();
}

/**
 * The deepest nesting of `[`/`{` in a JSON text (strings skipped), read in one linear pass that
 * stops as soon as it passes `stopAbove`: run before anything parses or walks the text, so a
 * million nested arrays cost one scan, not a parse.
 */
export function nestingDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: a quote preceded by an odd run of backslashes is escaped.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string literal opening at `i`. */
function stringEnd(text: string, i: number, name: string): number {
  let j = i + 1;
  for (;;) {
    const quote = text.indexOf('"', j);
    if (quote < 0) throw invalid(name);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    j = quote + 1;
  }
}

/** Index just past the value starting at `i` (strings skipped, brackets balanced). */
function valueEnd(text: string, i: number, name: string): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i, name);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x22) j = stringEnd(text, j, name) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return j + 1;
      }
    }
    throw invalid(name);
  }
  let j = i;
  while (j < text.length && !/[,\]}\s]/.test(text[j]!)) j++;
  if (j === i) throw invalid(name);
  return j;
}

/** The elements of the container opening at `start`: object keys or array indexes, with value bounds. */
function* elements(text: string, start: number, name: string): Generator<{ key?: string; index: number; from: number; to: number }> {
  const isArray = text[start] === "[";
  const closer = isArray ? "]" : "}";
  let i = skipSpace(text, start + 1);
  if (text[i] === closer) return;
  for (let index = 0; ; index++) {
    let key: string | undefined;
    if (!isArray) {
      if (text[i] !== '"') throw invalid(name);
      const keyEnd = stringEnd(text, i, name);
      key = parse(text.slice(i, keyEnd), name) as string;
      i = skipSpace(text, keyEnd);
      if (text[i] !== ":") throw invalid(name);
      i = skipSpace(text, i + 1);
    }
    const to = valueEnd(text, i, name);
    yield { key, index, from: i, to };
    i = skipSpace(text, to);
    if (text[i] === ",") {
      i = skipSpace(text, i + 1);
      continue;
    }
    if (text[i] === closer) return;
    throw invalid(name);
  }
}

function walk(value: Json[] | { [key: string]: Json }, path: string, depth: number, out: BlockCollector): void {
  if (out.full) return;
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const label = path ? `${path} - ` : "";
  if (Array.isArray(value) && value.every((v) => !isContainer(v))) {
    if (value.length) out.row(`${path || "items"}: ${value.map(scalar).join(", ")}`);
    return;
  }
  if (depth >= MAX_DEPTH) {
    out.row(`${path}: (nested data omitted)`);
    return;
  }
  let fields: string[] = [];
  const flush = () => {
    if (fields.length) out.row(label + fields.join("; "));
    fields = [];
  };
  for (const [key, child] of entries) {
    if (out.full) return;
    if (Array.isArray(value) ? isShort(child) : isInline(child)) {
      fields.push(`${key}: ${scalar(child)}`);
    } else if (isContainer(child)) {
      flush();
      walk(child, childPath(path, key), depth + 1, out);
    } else {
      flush();
      out.paragraph(`${childPath(path, key)}: ${scalar(child)}`);
    }
  }
  flush();
}
