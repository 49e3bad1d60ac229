/** Spinners: inline, a page fallback while a lazy page loads, and the access guard's 'Loading...'. */
import { appMessages } from "../../../../contract";

export function Spinner({ size = 20, className = "" }: { size?: number; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 animate-spin rounded-full border-2 border-current border-r-transparent ${className}`}
      style={{ width: size, height: size }}
    />
  );
}

/** Shown while a lazily loaded page downloads (spec: a spinner shows while a page loads). */
export function PageSpinner() {
  return (
    <div className="flex min-h-[40vh] flex-1 items-center justify-center text-faint" role="status">
      <Spinner size={24} />
      <span className="sr-only">{appMessages.loading}</span>
    </div>
  );
}

/** The access guard's screen while authentication resolves: 'Loading...' (spec section 2). */
export function LoadingScreen() {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3 text-muted" role="status">
      <Spinner size={24} className="text-accent" />
      <p className="text-sm">{appMessages.loading}</p>
    </div>
  );
}
