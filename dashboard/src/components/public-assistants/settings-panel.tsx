/**
 * The Settings tab of an assistant's page: the Edit form in sections (appearance apart from limits
 * and behaviour; the avatar uploaded at once), its Save button; beside it on wide screens, sticky
 * while the form scrolls, the real widget fed by the form's unsaved values (on a phone behind a
 * "Show preview" toggle at the top); Regenerate Key, and Delete. Both ask first (the page runs
 * them: `onConfirm`). The preview never takes focus.
 */
import { useId, useMemo, useState } from "react";
import { playgroundUi, publicAssistantUi, widgetLookUi, type PublicAssistant } from "../../../../contract";
import { Button } from "../ui/button";
import { KeyIcon, TrashIcon } from "../ui/icons";
import { AssistantFormFields, useAssistantForm } from "./assistant-settings-form";
import { AvatarField } from "./avatar-field";
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
  const previewId = useId();
  const [showPreview, setShowPreview] = useState(false);
  const { form, dialog: lowerBudgetDialog } = useBudgetLoweringGuard(useAssistantForm(assistant, onSaved), assistant);
  const avatar = <AvatarField assistantId={assistant._id} avatarUrl={assistant.config.customization.avatarUrl} onChanged={onSaved} />;
  return (
    <div className="space-y-8">
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem] xl:grid-cols-[minmax(0,1fr)_28rem]">
        <div className="lg:hidden">
          <Button variant="secondary" size="sm" aria-expanded={showPreview} aria-controls={previewId} onClick={() => setShowPreview((v) => !v)}>
            {showPreview ? widgetLookUi.hidePreview : widgetLookUi.showPreview}
          </Button>
        </div>
        <LivePreview id={previewId} assistant={assistant} values={form.values} className={`${showPreview ? "" : "max-lg:hidden"} lg:col-start-2 lg:row-start-1 lg:row-span-2`} />
        <section className="rounded-xl border border-line bg-surface p-4 sm:p-5 lg:col-start-1 lg:row-start-1">
          <AssistantFormFields form={form} formId={formId} label={L.editTitle} fixedHeight={false} mockPreview={false} layout="sections" avatar={avatar} />
          <div data-sticky-actions className="sticky bottom-0 -mx-4 mt-5 flex justify-end border-t border-line bg-surface px-4 py-3 sm:-mx-5 sm:px-5">
            <Button type="submit" form={formId} busy={form.saving}>
              {L.save}
            </Button>
          </div>
        </section>
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
function LivePreview({ id, assistant, values, className }: { id: string; assistant: PublicAssistant; values: AssistantFormValues; className: string }) {
  const titleId = useId();
  const next = widgetConfigFromForm(assistant._id, values, { avatarUrl: assistant.config.customization.avatarUrl });
  const key = JSON.stringify(next);
  const config = useMemo(() => JSON.parse(key) as typeof next, [key]);
  const saved = widgetConfigOf(assistant);
  const unsaved = widgetConfigDiffers(config, saved);
  return (
    <aside id={id} aria-labelledby={titleId} className={`space-y-2 lg:sticky lg:top-[4.5rem] ${className}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={titleId} className={`text-sm font-semibold ${unsaved ? "text-accent-text" : "text-fg"}`} aria-live="polite">
          {unsaved ? playgroundUi.previewUnsaved : playgroundUi.previewTitle}
        </h2>
      </div>
      {config.allowAttachments && !saved.allowAttachments && <p className="text-xs text-muted">{playgroundUi.attachmentsNotSaved}</p>}
      <WidgetStage config={config} label={playgroundUi.previewLabel} fitScreen />
      {/* Under the frame: beside the form the frame itself must fit the window. */}
      <p className="text-xs text-muted">{playgroundUi.previewHint}</p>
    </aside>
  );
}
