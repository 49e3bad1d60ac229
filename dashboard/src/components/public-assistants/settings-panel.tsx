/**
 * The Settings tab of an assistant's page: the Edit form (the dialog's, with its Save button here),
 * Regenerate Key, and Delete. Both ask first, with the spec's
 * confirmations (the page runs them: `onConfirm`).
 */
import { useId } from "react";
import { publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Button } from "../ui/button";
import { KeyIcon, TrashIcon } from "../ui/icons";
import { AssistantFormFields, useAssistantForm } from "./assistant-settings-form";
import type { PendingConfirmation } from "./confirm-actions";

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
  const form = useAssistantForm(assistant, onSaved);
  return (
    <div className="space-y-8">
      <section className="rounded-xl border border-line bg-surface p-4 sm:p-5">
        <AssistantFormFields form={form} formId={formId} label={L.editTitle} fixedHeight={false} />
        <div className="mt-5 flex justify-end border-t border-line pt-4">
          <Button type="submit" form={formId} busy={form.saving}>
            {L.save}
          </Button>
        </div>
      </section>

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
