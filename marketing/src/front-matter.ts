/**
 * Front matter of the marketing Markdown files: a `---` fenced block of `key: value` lines at the
 * very top. A deliberate subset of YAML (one-line scalars, optional quotes, # comments) so that the
 * content stays readable and no YAML library is needed.
 */

export interface FrontMatterResult {
  data: Record<string, string>;
  body: string;
}

const FENCE = /^---[ \t]*$/;
const LINE = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/;

/** Splits `source` into its front matter fields and the Markdown body. Throws on a malformed block. */
export function parseFrontMatter(source: string): FrontMatterResult {
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? "")) throw new Error("front matter: the file must start with a --- line");
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end < 0) throw new Error("front matter: no closing --- line");

  const data: Record<string, string> = {};
  for (const [i, raw] of lines.slice(1, end).entries()) {
    if (/^\s*(#.*)?$/.test(raw)) continue;
    const m = LINE.exec(raw);
    if (!m) throw new Error(`front matter line ${i + 2}: expected "key: value", got ${JSON.stringify(raw)}`);
    const key = m[1]!;
    if (key in data) throw new Error(`front matter line ${i + 2}: duplicate key "${key}"`);
    data[key] = unquote(m[2]!);
  }
  return { data, body: lines.slice(end + 1).join("\n").replace(/^\n+/, "") };
}

function unquote(value: string): string {
  const quoted = /^"(.*)"$/.exec(value);
  if (quoted) return quoted[1]!.replace(/\\(["\\])/g, "$1");
  const single = /^'(.*)'$/.exec(value);
  if (single) return single[1]!.replace(/''/g, "'");
  // An unquoted value may carry a trailing comment, as in YAML.
  return value.replace(/\s+#.*$/, "");
}
