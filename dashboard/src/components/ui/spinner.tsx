/** Spinners: inline, and a page fallback while a lazy page loads (the access guard's frame is layout/app-frame.tsx). */
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
