/**
 * The mobile slide-in menu (250 px, same items as the side panel, and Install App when offered). A Radix Dialog: focus is trapped
 * while it is open, Escape and the overlay close it, and focus returns to the 'Open menu' button. The one drawer of a phone:
 * a screen may add its own section under the navigation (menu-slot.ts; the chat screen's chats), and the menu is wider then.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useState } from "react";
import { layout, PRODUCT_NAME } from "../../../../contract";
import { InstallButton } from "../../pwa";
import { CloseIcon, MenuIcon, TalaMark } from "../ui/icons";
import { useMenuSlot } from "./menu-slot";
import { NavList } from "./nav-list";

export function MobileMenu() {
  const [open, setOpen] = useState(false);
  const filled = useMenuSlot((s) => s.filled);
  const publish = useMenuSlot((s) => s.publish);
  const slotRef = useCallback((node: HTMLElement | null) => publish(node, () => setOpen(false)), [publish]);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        aria-label="Open menu"
        className="-ml-1.5 inline-flex size-9 items-center justify-center rounded-lg text-fg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-accent md:hidden"
      >
        <MenuIcon size={20} />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex flex-col border-r border-line bg-canvas shadow-xl focus:outline-none data-[state=closed]:animate-slide-out-left data-[state=open]:animate-slide-in-left"
          style={{ width: filled ? layout.menuWithChatsWidthPx : layout.sidePanelWidthPx, maxWidth: "85vw" }}
        >
          <div className="flex h-14 items-center justify-between border-b border-line px-4">
            <span className="flex items-center gap-2 font-semibold text-fg">
              <TalaMark size={22} />
              {PRODUCT_NAME}
            </span>
            <Dialog.Title className="sr-only">Menu</Dialog.Title>
            <Dialog.Close
              aria-label="Close menu"
              className="inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
            >
              <CloseIcon size={18} />
            </Dialog.Close>
          </div>
          <div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
            <nav aria-label="Main" className={`p-3 ${filled ? "border-b border-line" : "flex-1"}`}>
              <NavList onNavigate={() => setOpen(false)} />
            </nav>
            <div ref={slotRef} className={filled ? "flex min-h-[20rem] flex-1 flex-col" : "hidden"} />
          </div>
          {/* The top bar has no room for it on phones (spec sections 1 and 9: offered while the browser allows). */}
          <div className="border-t border-line p-3 empty:hidden">
            <InstallButton className="w-full" />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
