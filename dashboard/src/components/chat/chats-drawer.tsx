/** The chats list in a drawer from the left (phones and tablets): a Radix Dialog, focus trapped, Escape closes. */
import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { chatUi } from "../../../../contract";
import { CloseIcon } from "../ui/icons";

export function ChatsDrawer({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40 data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex flex-col border-r border-line bg-canvas shadow-xl focus:outline-none data-[state=closed]:animate-slide-out-left data-[state=open]:animate-slide-in-left"
          style={{ width: 300, maxWidth: "85vw" }}
        >
          <div className="flex h-14 shrink-0 items-center justify-between border-b border-line px-4">
            <Dialog.Title className="font-semibold text-fg">{chatUi.chats}</Dialog.Title>
            <Dialog.Close
              aria-label={chatUi.closeChats}
              className="inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
            >
              <CloseIcon size={18} />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
