/**
 * Monthly budgets in the dashboard: the banners (an assistant's or all assistants'
 * budget at ≥ 80 %, or paused) and the owner's control of the all-assistants budget, both from
 * GET /api/budgets (`useBudgets`). An assistant's own budget is set in its settings (Limits tab).
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { budgets, budgetUi, type BudgetAction, type BudgetsResponse } from "../../../../contract";
import { errorMessage, fieldErrors } from "../../lib/api";
import { budgetsApi } from "../../lib/budgets-api";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { TextField } from "../ui/field";
import { AlertIcon } from "../ui/icons";
import { budgetAlerts, budgetLowering, type BudgetLowering } from "./budget-alerts";
import { budgetFieldValue, LowerBudgetDialog } from "./budget-lowering";

/** GET /api/budgets on mount; `reload` after a change. `failed`: the last load failed (the page works on without banners). */
export function useBudgets() {
  const [data, setData] = useState<BudgetsResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(async (signal?: AbortSignal) => {
    try {
      const next = await budgetsApi.get(signal);
      if (signal?.aborted) return;
      setData(next);
      setFailed(false);
    } catch {
      if (!signal?.aborted) setFailed(true);
    }
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);
  // Stable, so pages may hand it to effects and memoised callbacks.
  const reloadNow = useCallback(() => void reload(), [reload]);
  return { data, failed, reload: reloadNow, setData };
}

/** The banners: paused ones are alerts (announced at once), warnings are status messages. */
export function BudgetBanners({ data, assistantId, className = "" }: { data: BudgetsResponse | null; assistantId?: string; className?: string }) {
  const alerts = budgetAlerts(data, assistantId);
  if (alerts.length === 0) return null;
  return (
    <div className={`space-y-2 ${className}`}>
      {alerts.map((a) => (
        <div
          key={a.key}
          role={a.level === "paused" ? "alert" : "status"}
          className={`flex items-start gap-2.5 rounded-lg border px-3 py-2.5 text-sm ${
            a.level === "paused" ? "border-danger-line bg-danger-soft text-danger" : "border-warning-line bg-warning-soft text-warning-fg"
          }`}
        >
          <AlertIcon size={16} className="mt-0.5 shrink-0" />
          <p className="min-w-0 break-words">
            <span className="font-medium">{a.text}</span>
            {a.hint ? <span className="block sm:inline sm:pl-1">{a.hint}</span> : null}
          </p>
        </div>
      ))}
    </div>
  );
}

/** The all-assistants budget: its usage this month, a number (empty: none) and what happens at 100 %. */
export function OwnerBudgetControl({ data, onSaved }: { data: BudgetsResponse | null; onSaved: (next: BudgetsResponse) => void }) {
  const owner = data?.owner ?? null;
  const [limit, setLimit] = useState("");
  const [action, setAction] = useState<BudgetAction>(budgets.defaultAction);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const actionId = useId();

  // The saved budget fills the form when it arrives (and after a save).
  useEffect(() => {
    if (!owner) return;
    setLimit(owner.limit === null ? "" : String(owner.limit));
    setAction(owner.action);
  }, [owner?.limit, owner?.action]); // eslint-disable-line react-hooks/exhaustive-deps

  // A budget lowered to this month's use or below is asked first (with the figures).
  const [lowering, setLowering] = useState<BudgetLowering | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const ask = owner ? budgetLowering(owner.limit, budgetFieldValue(limit), owner.used) : null;
    if (ask) setLowering(ask);
    else await save();
  };

  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const next = await budgetsApi.setOwner({ limit: budgetFieldValue(limit), action });
      toast({ variant: "success", description: budgetUi.saved });
      onSaved(next);
    } catch (err) {
      const message = fieldErrors(err).limit ?? fieldErrors(err).action ?? errorMessage(err, budgetUi.unavailable);
      setError(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby={`${actionId}-title`} className="rounded-xl border border-line bg-surface p-4">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${actionId}-title`} className="text-sm font-semibold text-fg">
          {budgetUi.ownerTitle}
        </h2>
        {owner ? <p className="text-sm text-muted">{budgetUi.ownerUsage(owner.used, owner.limit)}</p> : null}
      </div>
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label={budgetUi.ownerLimit}
          name="ownerBudget"
          type="number"
          inputMode="numeric"
          step={1}
          min={budgets.min}
          max={budgets.max}
          hint={budgetUi.ownerHint}
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
          error={error}
          className="sm:flex-1"
        />
        <div className="sm:w-56">
          <label htmlFor={actionId} className="mb-1.5 block text-sm font-medium text-fg">
            {budgetUi.budgetAction}
          </label>
          <select
            id={actionId}
            value={action}
            onChange={(e) => setAction(e.target.value as BudgetAction)}
            className="block h-10 w-full rounded-lg border border-line-strong bg-surface px-3 text-sm text-fg focus:border-accent focus:ring-3 focus:ring-accent/20 focus:outline-none"
          >
            {budgets.actions.map((a) => (
              <option key={a} value={a}>
                {budgetUi.ownerBudgetActions[a]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" busy={saving} className="sm:mt-7">
          {saving ? budgetUi.saving : budgetUi.save}
        </Button>
      </form>
      <LowerBudgetDialog
        who={null}
        lowering={lowering}
        action={action}
        onCancel={() => setLowering(null)}
        onConfirm={() => {
          setLowering(null);
          void save();
        }}
      />
    </section>
  );
}
