/** Escaping for the hand-written templates. Every interpolated value goes through one of these. */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an element's content or a quoted attribute value. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** A URL-safe id from heading text ("How do I install Tala?" → "how-do-i-install-tala"). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/&[a-z]+;|&#\d+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** "2026-03-14" → "March 14, 2026" / "14 mars 2026", computed in UTC so the build is reproducible. */
export function formatDate(isoDate: string, lang: string): string {
  return new Intl.DateTimeFormat(lang === "fr" ? "fr-FR" : "en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${isoDate}T00:00:00Z`));
}
