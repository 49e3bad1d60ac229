/** Small display helpers: names, dates in the spec's formats, safe return locations. */
import { appMessages, appRoutes, publicAssistantMessages, timeFormat } from "../../../contract";
import type { User } from "../../../contract";

/** The name the top bar shows: the user's first name, else 'User' (spec section 2). */
export function displayFirstName(user: Pick<User, "firstName"> | null | undefined): string {
  const name = user?.firstName?.trim();
  return name || appMessages.userFallbackName;
}

/** One or two letters for an avatar. */
export function initials(user: Pick<User, "firstName" | "lastName"> | null | undefined): string {
  const first = user?.firstName?.trim()?.[0] ?? "";
  const last = user?.lastName?.trim()?.[0] ?? "";
  return (first + last).toUpperCase() || appMessages.userFallbackName[0]!;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Formats a timestamp with one of the spec's two patterns (section 9), in local time:
 * 'HH:mm' in messages, 'MMM d, yyyy HH:mm' elsewhere.
 */
export function formatTime(value: number | Date, pattern: string = timeFormat.elsewhere): string {
  const d = value instanceof Date ? value : new Date(value);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (pattern === timeFormat.message) return hm;
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()} ${hm}`;
}

/** 'MMM d, yyyy' (the date part of the spec's 'elsewhere' pattern). */
export function formatDay(value: number | Date): string {
  const d = value instanceof Date ? value : new Date(value);
  return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
}

const BYTE_UNITS = ["KB", "MB", "GB"] as const;

/**
 * A file size, the one format of every screen (the upload queue, the Knowledge table): '820 B'
 * below a kilobyte, else one decimal of KB, MB or GB (1024-based: '12.4 KB', '3.1 MB'), or
 * 'Size unknown' when the size is not usable (spec section 3 shows MB to 2 decimals, which reads
 * '0.00 MB' for a small Markdown or CSV file; README, "Where Tala departs from the spec").
 */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes < 0) return publicAssistantMessages.sizeUnknown;
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  // Promote when the rounded figure would read 1024.0 (1 048 575 bytes is '1.0 MB', not '1024.0 KB').
  while (unit < BYTE_UNITS.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/**
 * A location the user may be sent back to after signing in: a path inside the signed-in area,
 * never another origin ('//evil', 'https://…', '/\\evil') or a non-dashboard page.
 */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  let url: URL;
  try {
    url = new URL(value, "https://tala.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "https://tala.invalid") return null;
  if (url.pathname !== appRoutes.root && !url.pathname.startsWith(`${appRoutes.root}/`)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
