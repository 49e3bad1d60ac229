/**
 * The WAI-ARIA menu button pattern, shared by the top bar's menus (the user menu, the workspace
 * switcher): the first item focused on open, arrows, Home/End, Escape (focus back to the button),
 * Tab and a press outside close it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

/** `focusChecked`: on open, the checked item takes the focus (a list to choose one of) instead of the first. */
export function useMenuButton({ focusChecked = false }: { focusChecked?: boolean } = {}) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const buttonId = useId();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    if (all.length) all[(index + all.length) % all.length]!.focus();
  };
  const close = (returnFocus = true) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  // Focus the first item (or the checked one) on open; close on a pointer press outside.
  useEffect(() => {
    if (!open) return;
    const menu = menuRef.current;
    const checked = focusChecked ? menu?.querySelector<HTMLElement>('[role^="menuitem"][aria-checked="true"]') : null;
    (checked ?? menu?.querySelector<HTMLElement>('[role^="menuitem"]'))?.focus();
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open, focusChecked]);

  const onMenuKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        focusItem(index + 1);
        break;
      case "ArrowUp":
        e.preventDefault();
        focusItem(index - 1);
        break;
      case "Home":
        e.preventDefault();
        focusItem(0);
        break;
      case "End":
        e.preventDefault();
        focusItem(all.length - 1);
        break;
      case "Escape":
        e.preventDefault();
        close();
        break;
      case "Tab":
        setOpen(false);
        break;
    }
  };

  const onButtonKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
    }
  };

  return {
    open,
    setOpen,
    close,
    buttonProps: {
      ref: buttonRef,
      id: buttonId,
      type: "button" as const,
      "aria-haspopup": "menu" as const,
      "aria-expanded": open,
      "aria-controls": open ? menuId : undefined,
      onClick: () => setOpen((o) => !o),
      onKeyDown: onButtonKeyDown,
    },
    menuProps: { ref: menuRef, id: menuId, role: "menu" as const, "aria-labelledby": buttonId, onKeyDown: onMenuKeyDown },
  };
}
