/**
 * The Settings tab of an assistant's page: the Edit form (the dialog's, with its Save button here),
 * beside it (below it on phones) the real widget fed by the form's unsaved values,
 * Regenerate Key, and Delete. Both ask first, with the spec's
 * confirmations (the page runs them: `onConfirm`).
 */
import { useId, useMemo } from "react";
import { playgroundUi, publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Button } from "../ui/button";
import { KeyIcon, TrashIcon } from "../ui/icons";
import { AssistantFormFields, useAssistantForm } from "./assistant-settings-form";
import { HandoffSettingsSection } from "./handoff-settings";
import type { AssistantFormValues } from "./assistant-form";
import { useBudgetLoweringGuard } from "./budget-lowering";
import type { PendingConfirmation } from "./confirm-actions";
import { widgetConfigDiffers, widgetConfigFromForm, widgetConfigOf } from "./playground-config";
import { WidgetStage } from "./widget-stage";

const L = publicAssistantUi.form;
const C = publicAssistantUi.card;
const P = publicAssistantUi.page;

export function SettingsPanel({
  assistant,
  onSaved,
  onConfirm,
}: {
  assistant: PublicAssistant;
  onSaved: () => void;
  onConfirm: (pending: PendingConfirmation) => void;
}) {
  const formId = useId();
  const deleteId = useId();
  const { form, dialog: lowerBudgetDialog } = useBudgetLoweringGuard(useAssistantForm(assistant, onSaved), assistant);
  return (
    <div className="space-y-8">
      <div className="grid items-start gap-6 2xl:grid-cols-[minmax(0,1fr)_30rem]">
        <section className="rounded-xl border border-line bg-surface p-4 sm:p-5">
          <AssistantFormFields form={form} formId={formId} label={L.editTitle} fixedHeight={false} mockPreview={false} />
          <div className="mt-5 flex justify-end border-t border-line pt-4">
            <Button type="submit" form={formId} busy={form.saving}>
              {L.save}
            </Button>
          </div>
        </section>
        <LivePreview assistant={assistant} values={form.values} />
      </div>
      {lowerBudgetDialog}

      <HandoffSettingsSection assistant={assistant} onSaved={onSaved} />

      <section className="space-y-3 rounded-xl border border-line bg-surface p-4 sm:p-5">
        {/* The key itself, with copy and reveal, is in the page's header. */}
        <p className="text-sm text-muted">{publicAssistantUi.confirm.regenerate.description}</p>
        <Button variant="secondary" size="sm" onClick={() => onConfirm({ kind: "regenerate", assistant })}>
          <KeyIcon size={15} /> {C.regenerateKey}
        </Button>
      </section>

      <section aria-labelledby={deleteId} className="space-y-3 rounded-xl border border-danger-line bg-surface p-4 sm:p-5">
        <h2 id={deleteId} className="text-base font-semibold text-fg">
          {P.deleteTitle}
        </h2>
        <p className="text-sm text-muted">{P.deleteText}</p>
        <Button variant="danger" size="sm" onClick={() => onConfirm({ kind: "delete", assistant })}>
          <TrashIcon size={15} /> {C.delete}
        </Button>
      </section>
    </div>
  );
}

/**
 * The real widget with the form's current values: colour, header, welcome message, position,
 * size, attachments and sources follow each keystroke, unsaved. It chats through the Playground
 * (the saved instructions and knowledge answer).
 */
function LivePreview({ assistant, values }: { assistant: PublicAssistant; values: AssistantFormValues }) {
  const titleId = useId();
  const next = widgetConfigFromForm(assistant._id, values);
  const key = JSON.stringify(next);
  const config = useMemo(() => JSON.parse(key) as typeof next, [key]);
  const saved = widgetConfigOf(assistant);
  const unsaved = widgetConfigDiffers(config, saved);
  return (
    <aside aria-labelledby={titleId} className="space-y-2 2xl:sticky 2xl:top-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={titleId} className={`text-sm font-semibold ${unsaved ? "text-accent-text" : "text-fg"}`} aria-live="polite">
          {unsaved ? playgroundUi.previewUnsaved : playgroundUi.previewTitle}
        </h2>
      </div>
      <p className="text-xs text-muted">{playgroundUi.previewHint}</p>
      {config.allowAttachments && !saved.allowAttachments && <p className="text-xs text-muted">{playgroundUi.attachmentsNotSaved}</p>}
      <WidgetStage config={config} label={playgroundUi.previewLabel} />
    </aside>
  );
}
