/**
 * The owner's own settings of the workspace: its name, and transferring ownership to an admin
 * (asked first, the new owner's name typed to confirm; the old owner stays as an admin).
 */
import { useId, useState, type FormEvent } from "react";
import { teamLimits, teamUi, workspacePatchBody, type TeamResponse } from "../../../../contract";
import { teamApi } from "../../lib/team-api";
import { useFormAction } from "../../lib/use-form-action";
import { failureToast } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { TextField, inputClasses } from "../ui/field";
import { personName, transferTargets } from "./team-model";

const N = teamUi.workspaceName;
const T = teamUi.transfer;

export function WorkspaceNameSection({ team, onChanged }: { team: TeamResponse; onChanged: () => void }) {
  const titleId = useId();
  const [name, setName] = useState(team.workspace.name);
  const { submitting, error, fields, run, validate } = useFormAction();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = validate(workspacePatchBody, { name }, form);
    if (!body) return;
    void run(
      async () => {
        await teamApi.rename(body.name);
        toast({ variant: "success", description: N.saved });
        onChanged();
      },
      N.failed,
      { form },
    );
  };
  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-xl border border-line bg-surface p-4 sm:p-5">
      <h2 id={titleId} className="text-base font-semibold text-fg">
        {N.title}
      </h2>
      <FormAlert message={error} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField label={N.label} name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={teamLimits.maxWorkspaceNameChars} error={fields.name} className="flex-1" />
        <Button type="submit" variant="secondary" busy={submitting} className="sm:mt-7">
          {N.save}
        </Button>
      </form>
    </section>
  );
}

export function TransferSection({ team, onTransferred }: { team: TeamResponse; onTransferred: () => void }) {
  const titleId = useId();
  const selectId = useId();
  const typedId = useId();
  const admins = transferTargets(team.members);
  const [to, setTo] = useState("");
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const target = admins.find((a) => a.userId === to) ?? null;
  const targetName = target ? personName(target) : "";

  const transfer = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await teamApi.transfer(target.userId);
      toast({ variant: "success", description: T.done(targetName) });
      setAsking(false);
      onTransferred();
    } catch (err) {
      failureToast(err, T.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-xl border border-danger-line bg-surface p-4 sm:p-5">
      <h2 id={titleId} className="text-base font-semibold text-fg">
        {T.title}
      </h2>
      <p className="text-sm text-muted">{T.text}</p>
      {admins.length === 0 ? (
        <p className="text-sm text-muted">{T.noAdmins}</p>
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor={selectId} className="mb-1.5 block text-sm font-medium text-fg">
              {T.to}
            </label>
            <select id={selectId} value={to} onChange={(e) => setTo(e.target.value)} className={`${inputClasses} border-line-strong text-base sm:text-sm`}>
              <option value="">{T.choose}</option>
              {admins.map((a) => (
                <option key={a.userId} value={a.userId}>
                  {personName(a)} ({a.email})
                </option>
              ))}
            </select>
          </div>
          <Button
            variant="danger"
            disabled={!target}
            onClick={() => {
              setTyped("");
              setAsking(true);
            }}
          >
            {T.open}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={asking && target !== null}
        onOpenChange={setAsking}
        title={T.confirmTitle(targetName)}
        description={T.confirmText(targetName, team.workspace.name)}
        confirmLabel={T.confirm}
        cancelLabel={teamUi.members.cancel}
        busy={busy}
        confirmDisabled={typed.trim() !== targetName.trim()}
        onConfirm={transfer}
      >
        <div className="mt-4">
          <label htmlFor={typedId} className="mb-1.5 block text-sm font-medium text-fg">
            {T.typeToConfirm(targetName)}
          </label>
          <input id={typedId} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" className={`${inputClasses} border-line-strong text-base sm:text-sm`} />
        </div>
      </ConfirmDialog>
    </section>
  );
}
