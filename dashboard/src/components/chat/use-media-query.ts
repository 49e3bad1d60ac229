/** True while a CSS media query matches (re-renders when it starts or stops matching). */
import { useSyncExternalStore } from "react";

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The width from which the chats list sits beside the conversation (Tailwind's lg). */
export const wideLayoutQuery = "(min-width: 1024px)";

/** The width from which the side panel replaces the phone's menu drawer (Tailwind's md). */
export const sidePanelQuery = "(min-width: 768px)";
