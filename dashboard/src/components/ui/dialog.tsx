/**
 * Modal dialogs on Radix Dialog: focus trapped inside, Escape and the overlay close, focus returns to
 * what opened it, the title names the dialog (E2E tests find it with getByRole('dialog', { name })).
 * On phones a dialog fills the width and scrolls inside; its footer stays in view.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useRef, type ReactNode } from "react";
import { Button } from "./button";
import { CloseIcon } from "./icons";

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Buttons at the bottom, outside the scrolling body. */
  footer?: ReactNode;
  size?: "sm" | "md" | "lg" | "xl";
  /** While true, Escape, the overlay and the close button do nothing (an upload in flight). */
  locked?: boolean;
  closeLabel?: string;
  role?: "dialog" | "alertdialog";
  children?: ReactNode;
}

/**
 * Focus return for dialogs opened without a Radix Trigger: remember what had focus when the dialog
 * opened and give it back on close; when that element is gone (the card was deleted), the main
 * region takes it so keyboard users are not dropped at the top of the document.
 */
function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus: (e: Event) => {
      e.preventDefault();
      const target = opener.current?.isConnected ? opener.current : document.getElementById("main");
      target?.focus({ preventScroll: !opener.current?.isConnected });
    },
  };
}

const widths = { sm: "sm:max-w-md", md: "sm:max-w-lg", lg: "sm:max-w-2xl", xl: "sm:max-w-3xl" } as const;

export function Modal({ open, onOpenChange, title, description, footer, size = "md", locked = false, closeLabel = "Close", role = "dialog", children }: ModalProps) {
  const focus = useReturnFocus();
  const guard = (e: Event) => {
    if (locked) e.preventDefault();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (locked && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[1px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
        <Dialog.Content
          role={role}
          {...(description ? {} : { "aria-describedby": undefined })}
          {...focus}
          onEscapeKeyDown={guard}
          onPointerDownOutside={guard}
          onInteractOutside={guard}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-line bg-surface text-fg shadow-2xl focus:outline-none data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in ${widths[size]}`}
        >
          <div className="flex items-start justify-between gap-4 border-b border-line px-5 pt-5 pb-4 sm:px-6">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold tracking-tight text-fg">{title}</Dialog.Title>
              {description ? (
                <Dialog.Description className="mt-1 text-sm text-muted">{description}</Dialog.Description>
              ) : null}
            </div>
            <Dialog.Close
              aria-label={closeLabel}
              disabled={locked}
              className="-mt-1 -mr-2 inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-40"
            >
              <CloseIcon size={18} />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5 sm:px-6">{children}</div>
          {footer ? (
            <div className="flex flex-col-reverse gap-2 border-t border-line px-5 py-4 sm:flex-row sm:justify-end sm:px-6">{footer}</div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void | Promise<void>;
  busy?: boolean;
  /** More of the question under the description (what goes with it, a typed confirmation). */
  children?: ReactNode;
  /** The confirm button waits for something (a typed name). */
  confirmDisabled?: boolean;
}

/** A question with Cancel and a (destructive) confirm button; Cancel has the focus first. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, cancelLabel, onConfirm, busy = false, children, confirmDisabled = false }: ConfirmDialogProps) {
  const focus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
        <Dialog.Content
          role="alertdialog"
          {...focus}
          onPointerDownOutside={(e) => e.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-line bg-surface p-6 text-fg shadow-2xl focus:outline-none data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in sm:max-w-md"
        >
          <Dialog.Title className="text-lg font-semibold tracking-tight">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-muted">{description}</Dialog.Description>
          {children}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary" disabled={busy}>
                {cancelLabel}
              </Button>
            </Dialog.Close>
            <Button
              variant="destructive"
              busy={busy}
              disabled={confirmDisabled}
              onClick={() => void onConfirm()}
            >
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
