/**
 * A preview never takes focus on its own: the embedded widget's view moves focus to its input on
 * its first update after mounting (on the Settings and Playground tabs that scrolled the page to the
 * stage and, on a phone, would open the keyboard). While the stage is new (`armedMs`, or until that
 * one focus was handed back), focus arriving in the widget without the owner's gesture for it (a
 * click or key inside the stage, or Tab) is handed back and the page put back where it was. After
 * that the guard stands aside, so nothing the owner or their assistive technology does is undone.
 */
export function guardStageFocus(stage: HTMLElement, armedMs = 1500): () => void {
  let armed = true;
  let invited = false;
  let x = window.scrollX;
  let y = window.scrollY;
  const timer = setTimeout(() => (armed = false), armedMs);
  const onInput = (e: Event) => {
    invited = e.composedPath().includes(stage) || (e instanceof KeyboardEvent && e.key === "Tab");
  };
  // Scroll events come a frame late: when the stray focus lands, these are still the page's place before it.
  const onScroll = () => {
    x = window.scrollX;
    y = window.scrollY;
  };
  const onFocusIn = (e: FocusEvent) => {
    if (!armed || invited) return;
    armed = false;
    const host = e.target as HTMLElement | null;
    const inner = (host?.shadowRoot?.activeElement ?? host) as HTMLElement | null;
    inner?.blur();
    window.scrollTo(x, y);
  };
  document.addEventListener("pointerdown", onInput, true);
  document.addEventListener("keydown", onInput, true);
  window.addEventListener("scroll", onScroll, { passive: true });
  stage.addEventListener("focusin", onFocusIn);
  return () => {
    clearTimeout(timer);
    document.removeEventListener("pointerdown", onInput, true);
    document.removeEventListener("keydown", onInput, true);
    window.removeEventListener("scroll", onScroll);
    stage.removeEventListener("focusin", onFocusIn);
  };
}
