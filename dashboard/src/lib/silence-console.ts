/**
 * Spec section 8: "All console output is silenced." In production builds every console method
 * becomes a no-op (ours never write; this covers libraries such as Firebase). Development builds
 * keep the console so developers see React's warnings.
 */
const METHODS = ["log", "info", "warn", "error", "debug", "trace", "table", "dir", "group", "groupCollapsed", "groupEnd", "time", "timeEnd", "timeLog", "count", "assert"] as const;

export function silenceConsole(production: boolean = import.meta.env.PROD): void {
  if (!production) return;
  const noop = () => {};
  for (const method of METHODS) {
    try {
      (console as unknown as Record<string, unknown>)[method] = noop;
    } catch {
      // A locked-down console: nothing to do.
    }
  }
}
