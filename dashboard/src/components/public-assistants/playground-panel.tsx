/**
 * The Playground tab of an assistant's page: the real widget, open, with the saved
 * settings, on a framed page of "your website" (widget-stage.tsx). The owner chats with their
 * assistant as a visitor would (POST …/playground: the widget's retrieval, prompt and model, or
 * the offline excerpts), with the widget's own Stop, errors, attachments and new conversation,
 * without counting against the visitors' limits or appearing in the history. The conversation
 * lives in the widget only; each message carries its earlier turns.
 */
import { useMemo, useState } from "react";
import { playgroundUi, publicAssistantUi, type PublicAssistant } from "../../../../contract";
import type { PlaygroundConfig } from "../../../../widget-sdk/src/core/playground";
import { widgetConfigOf } from "./playground-config";
import { WidgetStage } from "./widget-stage";

const L = publicAssistantUi.page.playground;

/** `onAnswered`: after the first answer while the checklist's Playground step is not ticked (the page re-reads the assistant). */
export function PlaygroundPanel({ assistant, onAnswered }: { assistant: PublicAssistant; onAnswered?: () => void }) {
  const untried = assistant.config.onboarding.playgroundAt === null;
  const [left, setLeft] = useState<number | null>(null);
  // A new object only when a setting the widget shows changed (the page re-reads the assistant often).
  const key = JSON.stringify(widgetConfigOf(assistant));
  const config = useMemo(() => JSON.parse(key) as PlaygroundConfig, [key]);

  return (
    <section className="space-y-3">
      <p className="max-w-2xl text-sm text-muted">{L.description}</p>
      {/* No focus on its own: opening the tab must not scroll the page (nor open a phone's keyboard). */}
      <WidgetStage config={config} label={playgroundUi.stageLabel} onRemaining={(remaining) => {
          setLeft(remaining);
          if (untried) onAnswered?.();
        }}
      />
      {left !== null && <p className="text-center text-xs text-faint">{L.left(left)}</p>}
    </section>
  );
}
