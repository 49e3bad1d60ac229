import { bySlices } from "./collector";

/**
 * The named character references pages commonly use (HTML has 2,231; the rest stay as written).
 * XML files keep their five predefined entities only (`decodeEntities` in collector.ts).
 */
const named: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", shy: "\u00ad", ensp: "\u2002", emsp: "\u2003", thinsp: "\u2009",
  zwnj: "\u200c", zwj: "\u200d", lrm: "\u200e", rlm: "\u200f", ndash: "\u2013", mdash: "\u2014", lsquo: "\u2018", rsquo: "\u2019",
  sbquo: "\u201a", ldquo: "\u201c", rdquo: "\u201d", bdquo: "\u201e", laquo: "\u00ab", raquo: "\u00bb", lsaquo: "\u2039", rsaquo: "\u203a",
  hellip: "\u2026", bull: "\u2022", middot: "\u00b7", prime: "\u2032", Prime: "\u2033", dagger: "\u2020", Dagger: "\u2021", permil: "\u2030",
  copy: "\u00a9", reg: "\u00ae", trade: "\u2122", sect: "\u00a7", para: "\u00b6", deg: "\u00b0", plusmn: "\u00b1", times: "\u00d7",
  divide: "\u00f7", minus: "\u2212", micro: "\u00b5", frac12: "\u00bd", frac14: "\u00bc", frac34: "\u00be", sup1: "\u00b9", sup2: "\u00b2",
  sup3: "\u00b3", ordf: "\u00aa", ordm: "\u00ba", not: "\u00ac", cent: "\u00a2", pound: "\u00a3", yen: "\u00a5", euro: "\u20ac", curren: "\u00a4",
  iexcl: "\u00a1", iquest: "\u00bf", larr: "\u2190", rarr: "\u2192", uarr: "\u2191", darr: "\u2193", harr: "\u2194", rArr: "\u21d2",
  lArr: "\u21d0", hArr: "\u21d4", le: "\u2264", ge: "\u2265", ne: "\u2260", asymp: "\u2248", infin: "\u221e", check: "\u2713", hearts: "\u2665",
  star: "\u2606", Agrave: "\u00c0", Aacute: "\u00c1", Acirc: "\u00c2", Atilde: "\u00c3", Auml: "\u00c4", Aring: "\u00c5", AElig: "\u00c6",
  Ccedil: "\u00c7", Egrave: "\u00c8", Eacute: "\u00c9", Ecirc: "\u00ca", Euml: "\u00cb", Igrave: "\u00cc", Iacute: "\u00cd", Icirc: "\u00ce",
  Iuml: "\u00cf", ETH: "\u00d0", Ntilde: "\u00d1", Ograve: "\u00d2", Oacute: "\u00d3", Ocirc: "\u00d4", Otilde: "\u00d5", Ouml: "\u00d6",
  Oslash: "\u00d8", Ugrave: "\u00d9", Uacute: "\u00da", Ucirc: "\u00db", Uuml: "\u00dc", Yacute: "\u00dd", THORN: "\u00de", szlig: "\u00df",
  agrave: "\u00e0", aacute: "\u00e1", acirc: "\u00e2", atilde: "\u00e3", auml: "\u00e4", aring: "\u00e5", aelig: "\u00e6", ccedil: "\u00e7",
  egrave: "\u00e8", eacute: "\u00e9", ecirc: "\u00ea", euml: "\u00eb", igrave: "\u00ec", iacute: "\u00ed", icirc: "\u00ee", iuml: "\u00ef",
  eth: "\u00f0", ntilde: "\u00f1", ograve: "\u00f2", oacute: "\u00f3", ocirc: "\u00f4", otilde: "\u00f5", ouml: "\u00f6", oslash: "\u00f8",
  ugrave: "\u00f9", uacute: "\u00fa", ucirc: "\u00fb", uuml: "\u00fc", yacute: "\u00fd", thorn: "\u00fe", yuml: "\u00ff", OElig: "\u0152",
  oelig: "\u0153", Scaron: "\u0160", scaron: "\u0161", Yuml: "\u0178", fnof: "\u0192", circ: "\u02c6", tilde: "\u02dc", alpha: "\u03b1",
  beta: "\u03b2", gamma: "\u03b3", delta: "\u03b4", pi: "\u03c0", sigma: "\u03c3", mu: "\u03bc", lambda: "\u03bb", omega: "\u03c9", Omega: "\u03a9",
};

/**
 * What bytes 0x80–0x9F mean in windows-1252 (the encoding HTML gives "latin1" and "iso-8859-1"),
 * by offset from 0x80; 0 where the byte stays itself. Numeric references in that range mean these
 * characters too (WHATWG "numeric character reference end state").
 */
export const windows1252High = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function fromCode(code: number): string {
  if (code >= 0x80 && code <= 0x9f) return String.fromCodePoint(windows1252High[code - 0x80] || code);
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(code);
}

// Bounded quantifiers only: each match looks at most a dozen characters, whatever the text.
const reference = /&(?:#[xX]([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|([a-zA-Z][a-zA-Z0-9]{1,9});)/g;

const decodeSlice = (text: string) =>
  text.replace(reference, (all, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
    if (hex !== undefined) return fromCode(parseInt(hex, 16));
    if (decimal !== undefined) return fromCode(parseInt(decimal, 10));
    return Object.hasOwn(named, name!) ? named[name!]! : all;
  });

/**
 * Decodes HTML character references: the common named ones (with their ";"), decimal and hex
 * ones (";" optional, 0x80–0x9F read as windows-1252, invalid code points as U+FFFD). Unknown names
 * stay as written. Linear, in 64 K slices cut before an "&" (see `bySlices`).
 */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes("&")) return text;
  return bySlices(text, decodeSlice, (t, at) => t.charCodeAt(at) === 0x26);
}
