/**
 * The assistant page's first-hour checklist: add knowledge → customise → try it in the Playground →
 * install → first visitor, each ticked from real state (onboarding.ts). It can be hidden (the server
 * keeps that) and comes back from a link; once every step is done it is gone.
 */
import { useEffect, useId, useState } from "react";
import { onboardingSteps, onboardingUi as U, type OnboardingEvent, type OnboardingStep, type PublicAssistant } from "../../../../contract";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { qaApi } from "../../lib/qa-api";
import { failureToast } from "../../stores/public-assistants";
import { Button } from "../ui/button";
import { CheckIcon, CloseIcon } from "../ui/icons";
import { checklistState, onboardingProgress, type KnowledgeCounts } from "./onboarding";

/** The page's tab each step's button opens. */
export const onboardingStepTab: Record<OnboardingStep, string> = {
  knowledge: "knowledge",
  customise: "settings",
  playground: "playground",
  install: "code",
  visitor: "history",
};

/** Website sources and curated answers count only while no file does; both read once. */
function useKnowledgeCounts(assistant: PublicAssistant, needed: boolean): KnowledgeCounts {
  const [counts, setCounts] = useState<KnowledgeCounts>({ sources: null, qa: null });
  const id = assistant._id;
  useEffect(() => {
    if (!needed) return;
    const controller = new AbortController();
    publicAssistantsApi
      .sources(id, controller.signal)
      .then((sources) => setCounts((c) => ({ ...c, sources: sources.length })))
      .catch(() => {});
    qaApi
      .list(id, "", 1, controller.signal)
      .then((page) => setCounts((c) => ({ ...c, qa: page.total })))
      .catch(() => {});
    return () => controller.abort();
  }, [id, needed]);
  return counts;
}

export function OnboardingChecklist({ assistant, onOpenTab, onChanged }: { assistant: PublicAssistant; onOpenTab: (tab: string) => void; onChanged: () => void }) {
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const counts = useKnowledgeCounts(assistant, assistant.files.length === 0);
  const progress = onboardingProgress(assistant, counts);
  const state = checklistState(assistant, progress);
  if (state === "done") return null;

  const record = async (event: OnboardingEvent) => {
    setBusy(true);
    try {
      await publicAssistantsApi.onboarding(assistant._id, event);
      onChanged();
    } catch (err) {
      failureToast(err, U.title);
    } finally {
      setBusy(false);
    }
  };

  if (state === "hidden") {
    return (
      <div className="mt-4">
        <Button variant="ghost" size="sm" className="-ml-3 text-accent-text" busy={busy} onClick={() => void record("restored")}>
          {U.restore}
        </Button>
      </div>
    );
  }

  const done = onboardingSteps.filter((s) => progress[s]).length;
  const next = onboardingSteps.find((s) => !progress[s]);
  return (
    <section aria-labelledby={titleId} className="mt-4 rounded-xl border border-line bg-surface p-4 sm:p-5">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id={titleId} className="text-base font-semibold text-fg">
            {U.title}
          </h2>
          <p className="mt-0.5 text-sm text-muted">{U.progress(done, onboardingSteps.length)}</p>
        </div>
        <Button variant="ghost" size="sm" aria-label={U.dismiss} title={U.dismiss} busy={busy} onClick={() => void record("dismissed")}>
          <CloseIcon size={16} />
        </Button>
      </div>
      <div
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-subtle"
        role="progressbar"
        aria-label={U.title}
        aria-valuemin={0}
        aria-valuemax={onboardingSteps.length}
        aria-valuenow={done}
      >
        <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${(done / onboardingSteps.length) * 100}%` }} />
      </div>
      <ol className="mt-4 grid gap-2 sm:grid-cols-2 xl:grid-cols-5">
        {onboardingSteps.map((step, i) => {
          const ticked = progress[step];
          const S = U.steps[step];
          return (
            <li key={step} className={`flex gap-3 rounded-lg border p-3 max-sm:py-2 xl:flex-col ${step === next ? "border-accent" : "border-line"}`}>
              <span
                aria-hidden="true"
                className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${ticked ? "bg-accent text-white" : "border border-line-strong text-muted"}`}
              >
                {ticked ? <CheckIcon size={14} /> : i + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className={`text-sm font-medium ${ticked ? "text-muted line-through" : "text-fg"}`}>
                  {S.title}
                  <span className="sr-only">{`: ${ticked ? U.done : U.notDone}`}</span>
                </p>
                {/* On a phone only the next step says more: the list stays short above the tabs. */}
                {!ticked && <p className={`mt-0.5 text-xs text-muted ${step === next ? "" : "max-sm:hidden"}`}>{S.text}</p>}
                {!ticked && (
                  <Button
                    variant={step === next ? "primary" : "secondary"}
                    size="sm"
                    className={`mt-2 ${step === next ? "" : "max-sm:hidden"}`}
                    onClick={() => onOpenTab(onboardingStepTab[step])}
                  >
                    {S.action}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
