/**
 * The real widget (widget-sdk/src/core, the same Preact view and controller as widget-core.js)
 * open on a framed "your website" page: the Playground tab and the Settings tab's live preview.
 * The widget's launcher and panel are `position: fixed`; the stage's inner box has a
 * transform, which makes it their containing block, so they sit in the chosen corner of the frame
 * at the chosen size instead of over the dashboard (at 480 px and below the panel fills the frame,
 * as it fills a phone's screen). Messages go to the playground endpoint with the owner's token:
 * nothing is saved and no visitor counter moves.
 */
import { useEffect, useRef, type CSSProperties } from "react";
import { playgroundUi } from "../../../../contract";
import { mountPlaygroundWidget, type PlaygroundConfig, type PlaygroundWidget } from "../../../../widget-sdk/src/core/playground";
import { authorizationHeader } from "../../lib/api";
import { playgroundUrl, stageHeight } from "./playground-config";
import { guardStageFocus } from "./stage-focus-guard";

export interface WidgetStageProps {
  config: PlaygroundConfig;
  /** The stage's accessible name. */
  label: string;
  /** Beside a form on a wide screen: at most the window's height less the top bar (the sticky preview stays whole). */
  fitScreen?: boolean;
  /** The owner's playground messages left this minute, after each answer. */
  onRemaining?: (remaining: number, limit: number) => void;
}

/** Decorative lines of the made-up page behind the widget. */
function FakePage() {
  return (
    <div aria-hidden="true" className="space-y-5 p-6 sm:p-8">
      <div className="flex items-center justify-between">
        <div className="h-4 w-24 rounded bg-line-strong/70" />
        <div className="hidden gap-3 sm:flex">
          <div className="h-3 w-12 rounded bg-line" />
          <div className="h-3 w-12 rounded bg-line" />
          <div className="h-3 w-12 rounded bg-line" />
        </div>
      </div>
      <div className="max-w-md space-y-3 pt-6">
        <div className="h-6 w-4/5 rounded bg-line-strong/60" />
        <div className="h-6 w-3/5 rounded bg-line-strong/60" />
        <div className="h-3 w-full rounded bg-line" />
        <div className="h-3 w-11/12 rounded bg-line" />
        <div className="h-3 w-2/3 rounded bg-line" />
        <div className="h-9 w-32 rounded-lg bg-line-strong/60" />
      </div>
      <div className="grid max-w-2xl grid-cols-3 gap-4 pt-4">
        <div className="h-20 rounded-lg bg-line/70" />
        <div className="h-20 rounded-lg bg-line/70" />
        <div className="h-20 rounded-lg bg-line/70" />
      </div>
    </div>
  );
}

export function WidgetStage({ config, label, fitScreen = false, onRemaining }: WidgetStageProps) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<PlaygroundWidget | null>(null);
  // The mount reads these once; later values reach it through the refs.
  const latest = useRef({ config, onRemaining });
  latest.current = { config, onRemaining };
  const assistantId = config.id;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const unguard = guardStageFocus(el);
    const mounted = mountPlaygroundWidget(el, {
      config: latest.current.config,
      url: playgroundUrl(assistantId),
      authorization: () => authorizationHeader(),
      onRemaining: (remaining, limit) => latest.current.onRemaining?.(remaining, limit),
      // Never on its own: the owner opened a tab, not the widget's text box (the page must not scroll).
      focus: false,
    });
    widget.current = mounted;
    return () => {
      unguard();
      mounted.destroy();
      widget.current = null;
    };
    // One widget per assistant and stage; the settings follow below.
  }, [assistantId]);

  useEffect(() => widget.current?.update(config), [config]);

  const style = { "--stage-h": `${stageHeight[config.size] ?? stageHeight.medium}px` } as CSSProperties;
  return (
    <figure role="region" aria-label={label} className="overflow-hidden rounded-xl border border-line bg-surface shadow-sm">
      <div aria-hidden="true" className="flex items-center gap-2 border-b border-line bg-subtle px-3 py-2">
        <span className="size-2.5 rounded-full bg-line-strong" />
        <span className="size-2.5 rounded-full bg-line-strong" />
        <span className="size-2.5 rounded-full bg-line-strong" />
        <span className="ml-2 min-w-0 flex-1 truncate rounded-md bg-surface px-3 py-0.5 text-center text-xs text-faint">{playgroundUi.siteAddress}</span>
      </div>
      <div
        className={`relative h-(--stage-h) overflow-hidden bg-canvas max-[480px]:h-[75dvh] ${fitScreen ? "lg:h-[min(var(--stage-h),calc(100dvh_-_9.5rem))]" : ""}`}
        style={style}
      >
        <FakePage />
        {/* The transform makes this box the containing block of the widget's fixed launcher and panel. */}
        <div ref={box} className="absolute inset-0 [transform:translateZ(0)]" />
      </div>
    </figure>
  );
}
