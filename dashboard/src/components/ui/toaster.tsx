/**
 * Renders the one current toast in a polite live region (always mounted so it is announced), at the
 * top of the screen: at the bottom it covered the Save button of dialogs, whose footers stay there.
 */
import { useToastState, type ToastVariant } from "../../stores/toast";
import { AlertIcon, CheckIcon, CloseIcon } from "./icons";

const styles: Record<ToastVariant, string> = {
  default: "border-line bg-surface text-fg",
  success: "border-line bg-surface text-fg",
  destructive: "border-danger-line bg-danger-soft text-danger",
};

export function Toaster() {
  const current = useToastState((s) => s.current);
  const dismiss = useToastState((s) => s.dismiss);
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex justify-center p-3 sm:justify-end sm:p-4"
    >
      {current && (
        <div
          key={current.id}
          data-variant={current.variant}
          className={`pointer-events-auto flex w-full max-w-sm animate-toast-in items-start gap-3 rounded-xl border px-4 py-3 shadow-lg ${styles[current.variant]}`}
        >
          {current.variant === "destructive" ? (
            <AlertIcon size={18} className="mt-0.5 shrink-0" />
          ) : current.variant === "success" ? (
            <CheckIcon size={18} className="mt-0.5 shrink-0 text-success" />
          ) : null}
          <div className="min-w-0 flex-1 text-sm">
            {current.title && <p className="font-semibold">{current.title}</p>}
            {current.description && <p className={current.title ? "mt-0.5 opacity-90" : ""}>{current.description}</p>}
          </div>
          <button
            type="button"
            onClick={() => dismiss(current.id)}
            aria-label="Dismiss notification"
            className="-mr-1 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-accent"
          >
            <CloseIcon size={16} />
          </button>
        </div>
      )}
    </div>
  );
}
