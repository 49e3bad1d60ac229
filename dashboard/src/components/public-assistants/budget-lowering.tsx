/**
 * Lowering a budget to this month's use or below is asked first (`budgetLowering`): the budget
 * would be used up the moment it is saved. For an assistant's settings form (its Settings tab and
 * the Edit dialog) `useBudgetLoweringGuard` wraps the form's submit without changing the form:
 * only a lowered budget reads this month's use (GET /api/budgets) before saving.
 */
import { useRef, useState, type FormEvent } from "react";
import { budgetUi, type BudgetAction, type PublicAssistant } from "../../../../contract";
import { budgetsApi } from "../../lib/budgets-api";
import { ConfirmDialog } from "../ui/dialog";
import { parseInteger } from "./assistant-form";
import { budgetLowering, type BudgetLowering } from "./budget-alerts";
import type { AssistantForm } from "./assistant-settings-form";

/** The form's budget field as a number (null: none; NaN: not a number, the server's check says so). */
export const budgetFieldValue = (text: string): number | null => (text.trim() === "" ? null : parseInteger(text));

/** The question, with the figures: who (null: all assistants), this month's use, the new budget, what happens. */
export function LowerBudgetDialog({
  who,
  lowering,
  action,
  onConfirm,
  onCancel,
}: {
  who: string | null;
  lowering: BudgetLowering | null;
  action: BudgetAction;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={lowering !== null}
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title={budgetUi.lowerTitle}
      description={lowering ? budgetUi.lowerText(who, lowering.used, lowering.limit, action) : ""}
      confirmLabel={budgetUi.lowerConfirm}
      cancelLabel={budgetUi.lowerCancel}
      onConfirm={onConfirm}
    />
  );
}

/** Dispatches the form's submit when no event is at hand (the owner confirmed). */
const confirmedSubmit = { preventDefault() {} } as FormEvent;

/**
 * The assistant form with its submit guarded: a budget lowered to this month's use or below opens
 * the question first; confirmed, the form saves as usual. When the use cannot be read, the form
 * saves (the server's checks still apply).
 */
export function useBudgetLoweringGuard(form: AssistantForm, assistant: PublicAssistant | null) {
  const [lowering, setLowering] = useState<BudgetLowering | null>(null);
  const checking = useRef(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (checking.current || form.saving) return;
    const saved = assistant?.config.monthlyBudget ?? null;
    const next = budgetFieldValue(form.values.monthlyBudget);
    if (!assistant || next === null || Number.isNaN(next) || (saved !== null && next >= saved)) return form.submit(e);
    checking.current = true;
    let used: number | null;
    try {
      used = (await budgetsApi.get()).assistants.find((a) => a.assistantId === assistant._id)?.used ?? 0;
    } catch {
      used = null;
    } finally {
      checking.current = false;
    }
    const ask = used === null ? null : budgetLowering(saved, next, used);
    if (ask) setLowering(ask);
    else await form.submit(confirmedSubmit);
  };

  const dialog = (
    <LowerBudgetDialog
      who={publicAssistantName(assistant)}
      lowering={lowering}
      action={form.values.budgetAction}
      onCancel={() => setLowering(null)}
      onConfirm={() => {
        setLowering(null);
        void form.submit(confirmedSubmit);
      }}
    />
  );
  return { form: { ...form, submit } satisfies AssistantForm, dialog };
}

/** An unnamed assistant is "This assistant" in the question. */
const publicAssistantName = (assistant: PublicAssistant | null) => (assistant?.name ? assistant.name : budgetUi.thisAssistant);
