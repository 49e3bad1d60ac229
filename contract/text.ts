/**
 * Text that arrives from outside and is shown to someone else (a signed visitor's name, e-mail
 * and user id, on the owner's screens and in the export) must not carry characters that change how
 * the text around it reads: control characters (CR/LF that split a line or a header, NUL, the
 * other C0 and C1 controls) and the Unicode bidirectional overrides, embeddings, isolates and marks
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): U+202E then "moc.evil@eve" displays
 * as "eve@live.com". Applied once, where such text enters: the schema that reads it (a signed visitor's
 * claims, a widget session's referrer and locale, an attached file's name), or the route that
 * reads a header.
 */

/** Line breaks and tabs (and NEL, U+2028, U+2029): each run becomes one space, so "Jane\nDoe" reads "Jane Doe". */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** Every other C0 and C1 control, DEL, and the bidirectional controls: removed. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without control characters and bidirectional controls (line breaks and tabs become a space). */
export function stripUnsafeText(text: string): string {
  return text.replace(BREAKS, " ").replace(UNSAFE, "");
}

/** For `z.preprocess`: a string cleaned with `stripUnsafeText`, anything else as it came (the schema refuses it). */
export const cleanText = (value: unknown): unknown => (typeof value === "string" ? stripUnsafeText(value) : value);
