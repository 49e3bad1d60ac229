/**
 * Invite someone: e-mail and role (the roles the caller may give). The contract's check first,
 * then the server's answer on its field: a 400 names the field; a 409 (already a member, already
 * invited) belongs to the e-mail.
 */
import { useId, useRef, useState, type FormEvent } from "react";
import { invitationBody, teamLimits, teamUi, type MemberRole, type TeamRole } from "../../../../contract";
import { ApiError } from "../../lib/api";
import { teamApi } from "../../lib/team-api";
import { useFormAction } from "../../lib/use-form-action";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { TextField, inputClasses } from "../ui/field";
import { assignableRoles, roleName } from "./team-model";

const D = teamUi.inviteDialog;
const ttlDays = Math.round(teamLimits.invitationTtlMs / 86_400_000);

export function InviteDialog({ open, onOpenChange, caller, workspaceName, onInvited }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  caller: TeamRole;
  workspaceName: string;
  onInvited: () => void;
}) {
  const formId = useId();
  const roleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const roles = assignableRoles(caller);
  const [role, setRole] = useState<MemberRole>(roles.includes("agent") ? "agent" : (roles[0] ?? "viewer"));
  const { submitting, error, fields, run, validate, reset } = useFormAction();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const email = String(new FormData(form).get("email") ?? "");
    const body = validate(invitationBody, { email, role }, form);
    if (!body) return;
    void run(
      async () => {
        try {
          await teamApi.invite(body.email, body.role);
        } catch (err) {
          // A conflict is about the address typed: say it there.
          if (err instanceof ApiError && err.status === 409 && !err.fields) {
            throw new ApiError({ message: err.message, status: 409, code: err.code, fields: { email: err.message }, fromServer: true });
          }
          throw err;
        }
        toast({ variant: "success", description: D.sent(body.email) });
        onInvited();
        onOpenChange(false);
      },
      D.failed,
      { form },
    );
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title={D.title}
      description={D.description(workspaceName, ttlDays)}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={submitting}>
            {D.cancel}
          </Button>
          <Button type="submit" form={formId} busy={submitting}>
            {D.send}
          </Button>
        </>
      }
    >
      <form id={formId} ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4">
        <FormAlert message={error} />
        <TextField label={D.email} name="email" type="email" autoComplete="off" placeholder={D.emailPlaceholder} maxLength={254} error={fields.email} />
        <div>
          <label htmlFor={roleId} className="mb-1.5 block text-sm font-medium text-fg">
            {D.role}
          </label>
          <select
            id={roleId}
            name="role"
            value={role}
            aria-invalid={fields.role ? true : undefined}
            aria-describedby={fields.role ? `${roleId}-error` : `${roleId}-hint`}
            onChange={(e) => setRole(e.target.value as MemberRole)}
            className={`${inputClasses} ${fields.role ? "border-danger" : "border-line-strong"} text-base sm:text-sm`}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
          {fields.role ? (
            <p id={`${roleId}-error`} className="mt-1.5 text-xs font-medium text-danger">
              {fields.role}
            </p>
          ) : (
            <p id={`${roleId}-hint`} className="mt-1.5 text-xs text-muted">
              {teamUi.roleHints[role]}
            </p>
          )}
        </div>
      </form>
    </Modal>
  );
}
