/**
 * A place in the phone's menu drawer that the current screen may fill, so a phone has one drawer:
 * the chat screen puts its chats under the navigation (through a portal into `node`) instead of
 * opening a second drawer of its own. The menu publishes the node while it is open, and `close`.
 */
import { create } from "zustand";

interface MenuSlot {
  /** The element inside the open menu, or null while it is closed. */
  node: HTMLElement | null;
  /** Closes the menu (a chat was chosen in it). */
  close: () => void;
  /** Whether a screen fills the slot (the menu is wider then). */
  filled: boolean;
  publish: (node: HTMLElement | null, close: () => void) => void;
  setFilled: (filled: boolean) => void;
}

export const useMenuSlot = create<MenuSlot>((set) => ({
  node: null,
  close: () => {},
  filled: false,
  publish: (node, close) => set({ node, close }),
  setFilled: (filled) => set({ filled }),
}));
