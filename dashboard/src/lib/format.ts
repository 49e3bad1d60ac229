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

/**
 * A file size in bytes as the spec shows it (section 3, "Knowledge file"): megabytes to 2 decimals,
 * or 'Size unknown' when the size is missing or not a number.
 */
export function formatMegabytes(bytes: number | null | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes < 0) return publicAssistantMessages.sizeUnknown;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
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
