/**
 * The label of an icon button, shown after the spec's tooltip delay (layout.tooltipDelayMs, 700 ms)
 * of hovering, and at once when the button gets keyboard focus. Instead of `title`: it is styled,
 * appears on focus, and follows WCAG 1.4.13 (Escape hides it, it stays until the pointer or focus
 * leaves). It is drawn in a portal at fixed coordinates, above the button (below when there is no
 * room), kept inside the viewport, so no scrolling list or transformed parent clips it. The button
 * keeps its own aria-label, the same text, so the tooltip is not wired as a description (it would
 * be announced twice).
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { layout } from "../../../../contract";

const GAP_PX = 6;
const EDGE_PX = 4;

export function Tooltip({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<{ left: number; top: number } | null>(null);
  const anchor = useRef<HTMLSpanElement>(null);
  const tip = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  const hide = () => {
    cancel();
    setOpen(false);
    setPosition(null);
  };
  useEffect(() => cancel, []);
  useEffect(() => {
    if (!open) return;
    const close = () => {
      setOpen(false);
      setPosition(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    window.addEventListener("scroll", close, true);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("scroll", close, true);
    };
  }, [open]);
  useLayoutEffect(() => {
    if (!open || !anchor.current || !tip.current) return;
    const a = anchor.current.getBoundingClientRect();
    const t = tip.current.getBoundingClientRect();
    const above = a.top - GAP_PX - t.height;
    const top = above >= EDGE_PX ? above : a.bottom + GAP_PX;
    const left = Math.min(Math.max(EDGE_PX, a.left + a.width / 2 - t.width / 2), window.innerWidth - t.width - EDGE_PX);
    setPosition({ left, top });
  }, [open]);

  return (
    <span
      ref={anchor}
      className="inline-flex"
      onPointerEnter={(e) => {
        if (e.pointerType !== "mouse" || timer.current) return;
        timer.current = setTimeout(() => setOpen(true), layout.tooltipDelayMs);
      }}
      onPointerLeave={hide}
      onPointerDown={hide}
      onFocus={(e) => {
        if (e.target.matches(":focus-visible")) setOpen(true);
      }}
      onBlur={hide}
    >
      {children}
      {open &&
        createPortal(
          <span
            ref={tip}
            role="tooltip"
            style={{ left: position?.left ?? 0, top: position?.top ?? 0, visibility: position ? "visible" : "hidden" }}
            className="pointer-events-none fixed z-[60] whitespace-nowrap rounded-md bg-fg px-2 py-1 text-xs font-medium text-canvas shadow-md"
          >
            {label}
          </span>,
          document.body,
        )}
    </span>
  );
}
