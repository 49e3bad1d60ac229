/**
 * Create/Edit Assistant (spec sections 2 and 4): the form of assistant-settings-form.tsx in a
 * dialog. After a successful save the dialog closes and the list reloads (the page does both in
 * `onSaved`).
 */
import { useId } from "react";
import { publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { AssistantFormFields, useAssistantForm } from "./assistant-settings-form";
import { useBudgetLoweringGuard } from "./budget-lowering";

const L = publicAssistantUi.form;

export function AssistantFormDialog({
  open,
  assistant,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  /** The assistant to edit; null creates a new one. */
  assistant: PublicAssistant | null;
  onOpenChange: (open: boolean) => void;
  onSaved: (saved: PublicAssistant) => void;
}) {
  const formId = useId();
  const { form, dialog: lowerBudgetDialog } = useBudgetLoweringGuard(useAssistantForm(assistant, onSaved), assistant);
  const title = form.editing ? L.editTitle : L.createTitle;

  const footer = (
    <>
      <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={form.saving}>
        {L.cancel}
      </Button>
      <Button type="submit" form={formId} busy={form.saving}>
        {form.editing ? L.save : L.create}
      </Button>
    </>
  );

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={form.editing ? L.editDescription : L.createDescription}
      size="lg"
      footer={footer}
      locked={form.saving}
    >
      <AssistantFormFields form={form} formId={formId} label={title} />
      {lowerBudgetDialog}
    </Modal>
  );
}
