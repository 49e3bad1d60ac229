/**
 * Colour helpers for the owner's primary colour: WCAG 2 relative luminance and contrast ratio,
 * and the readable text colour to put on it (whichever of near-black and white contrasts more).
 */
export const DARK_TEXT = "#111827";
export const LIGHT_TEXT = "#FFFFFF";

/** [r, g, b] in 0..255 from #rrggbb (the contract's colour format); null for anything else. */
export function parseHex(color: string): [number, number, number] | null {
  return /^#[0-9a-f]{6}$/i.test(color) ? ([1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16)) as [number, number, number]) : null;
}

export function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The WCAG contrast ratio of two colours (1 to 21); 1 when either does not parse. */
export function contrastRatio(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return 1;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Text colour for a background of `color`: white or near-black, whichever contrasts more. Both
 * ratios are equal at the luminance L where (1 + 0.05) / (L + 0.05) = (L + 0.05) / (Ld + 0.05),
 * i.e. L = √(1.05 × (Ld + 0.05)) − 0.05 with Ld the luminance of DARK_TEXT (color.test.ts).
 */
export const THRESHOLD = 0.1993;
export function readableTextColor(color: string): string {
  const rgb = parseHex(color);
  return rgb && luminance(rgb) > THRESHOLD ? DARK_TEXT : LIGHT_TEXT;
}

/** The owner's colour when it is a valid hex colour, else `fallback` (the spec's #2962FF). */
export function safeColor(color: string | undefined, fallback: string): string {
  return color && parseHex(color) ? color : fallback;
}
