/**
 * How close a visitor's question must be to a curated answer for it to be used: three choices,
 * saved at once to the assistant's `config.qaStrictness` through the assistant's update call.
 */
import { useEffect, useId, useState } from "react";
import { qaLimits, qaUi, type PublicAssistant, type QaStrictness } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { Spinner } from "../ui/spinner";

const S = qaUi.strictness;

export function QaStrictnessSetting({ assistant, onSaved }: { assistant: PublicAssistant; onSaved: () => void }) {
  const id = useId();
  const saved = assistant.config.qaStrictness;
  // What the owner picked, shown until the assistant read again carries it (or the save is refused).
  const [chosen, setChosen] = useState<QaStrictness | null>(null);
  const [busy, setBusy] = useState(false);
  const value = chosen ?? saved;
  useEffect(() => setChosen((c) => (c === saved ? null : c)), [saved]);

  const choose = async (next: QaStrictness) => {
    if (next === value) return;
    setChosen(next);
    setBusy(true);
    try {
      await publicAssistantsApi.update(assistant._id, { config: { qaStrictness: next } });
      toast({ title: S.saved, variant: "success" });
      onSaved();
    } catch (err) {
      setChosen(null);
      toast({ title: errorMessage(err, S.saveFailed), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="rounded-lg border border-line p-3" aria-busy={busy || undefined}>
      <legend className="flex items-center gap-2 px-1 text-sm font-medium text-fg">
        {S.label}
        {busy && <Spinner size={12} />}
      </legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {qaLimits.strictnessLevels.map((level) => (
          <label
            key={level}
            className={`flex cursor-pointer items-start gap-2.5 rounded-lg border p-2.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${
              value === level ? "border-accent bg-accent-soft/60" : "border-line-strong hover:bg-subtle"
            }`}
          >
            <input
              type="radio"
              name={`${id}-strictness`}
              value={level}
              checked={value === level}
              disabled={busy}
              onChange={() => void choose(level)}
              aria-labelledby={`${id}-${level}`}
              aria-describedby={`${id}-${level}-help`}
              className="mt-0.5 accent-accent"
            />
            <span>
              <span id={`${id}-${level}`} className="block font-medium text-fg">
                {S.levels[level].label}
              </span>
              <span id={`${id}-${level}-help`} className="mt-0.5 block text-xs text-muted">
                {S.levels[level].help}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
