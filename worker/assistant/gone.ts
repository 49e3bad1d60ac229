/**
 * What every call of an assistant's own object answers once the assistant was deleted (or never
 * existed): one shape everywhere, so a caller checks `isGone` and maps it once. It crosses RPC as
 * a plain object, so compare with `isGone`, never by identity.
 */
export type Gone = { readonly gone: true };

export const gone: Gone = { gone: true };

export function isGone(value: unknown): value is Gone {
  return typeof value === "object" && value !== null && (value as { gone?: unknown }).gone === true;
}

/** `value`, or `fallback` when the assistant is gone. */
export function unlessGone<T, F>(value: T, fallback: F): Exclude<T, Gone> | F {
  return isGone(value) ? fallback : (value as Exclude<T, Gone>);
}
