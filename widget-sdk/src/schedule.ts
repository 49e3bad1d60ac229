import type { Scheduler } from "./facade";

const INTERACTIONS = ["pointerdown", "keydown", "touchstart", "scroll", "focusin"] as const;

/**
 * Starts the core when the page has loaded and the main thread is idle, or at the visitor's first
 * interaction, whichever comes first: the widget never competes with the host page's own loading.
 */
export const whenIdleOrInteraction: Scheduler = (start) => {
  let done = false;
  let idle: number | undefined;
  const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
  const cleanup = () => {
    done = true;
    for (const name of INTERACTIONS) removeEventListener(name, fire, true);
    removeEventListener("load", whenLoaded);
    if (idle !== undefined) (w.cancelIdleCallback ?? clearTimeout)(idle);
  };
  function fire() {
    if (done) return;
    cleanup();
    start();
  }
  function whenLoaded() {
    idle = w.requestIdleCallback ? w.requestIdleCallback(fire, { timeout: 4000 }) : (setTimeout(fire, 1500) as unknown as number);
  }
  for (const name of INTERACTIONS) addEventListener(name, fire, { capture: true, passive: true });
  if (document.readyState === "complete") whenLoaded();
  else addEventListener("load", whenLoaded);
  return cleanup;
};
