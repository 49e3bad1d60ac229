/**
 * The Team page's members: name, e-mail, role, joined; a role select and Remove (asking first,
 * naming the person) for those the caller may manage (team-model.ts), Leave for the caller when
 * they are not the owner. A row is a grid on wide screens and stacked lines on a phone.
 */
import { useId, useState } from "react";
import { teamUi, type MemberRole, type TeamMember, type TeamResponse } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { formatDay } from "../../lib/format";
import { teamApi } from "../../lib/team-api";
import { failureToast } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { LogOutIcon, TrashIcon } from "../ui/icons";
import { assignableRoles, canManageMember, personName, roleName } from "./team-model";

const M = teamUi.members;

type Pending = { kind: "remove"; member: TeamMember } | { kind: "leave" };

export function MembersSection({
  team,
  userId,
  onChanged,
  onLeft,
}: {
  team: TeamResponse;
  userId: string;
  /** The team changed here: read it again. */
  onChanged: () => void;
  /** The caller left the workspace. */
  onLeft: () => void;
}) {
  const titleId = useId();
  const caller = team.workspace.role;
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const roles = assignableRoles(caller);

  const changeRole = async (member: TeamMember, role: MemberRole) => {
    setBusy(member.userId);
    try {
      await teamApi.changeRole(member.userId, role);
      toast({ variant: "success", description: M.roleChanged(personName(member), roleName(role)) });
    } catch (err) {
      failureToast(err, M.roleFailed);
    } finally {
      setBusy(null);
      onChanged();
    }
  };

  const confirm = async () => {
    if (!pending) return;
    const id = pending.kind === "remove" ? pending.member.userId : userId;
    setBusy(id);
    try {
      await teamApi.removeMember(id);
      if (pending.kind === "remove") {
        toast({ variant: "success", description: M.removed(personName(pending.member)) });
        onChanged();
      } else {
        toast({ variant: "success", description: M.left(team.workspace.name) });
        onLeft();
      }
      setPending(null);
    } catch (err) {
      toast({ variant: "destructive", title: pending.kind === "remove" ? M.removeFailed : M.leaveFailed, description: errorMessage(err, "") || undefined });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-base font-semibold text-fg">
          {M.title}
        </h2>
        <span className="text-xs text-muted tabular-nums">{M.count(team.members.length)}</span>
      </div>
      <ul aria-label={M.listLabel} className="divide-y divide-line rounded-xl border border-line bg-surface">
        {team.members.map((m) => {
          const name = personName(m);
          const manageable = canManageMember(caller, userId, m);
          const self = m.userId === userId;
          return (
            <li key={m.userId} className="grid gap-x-4 gap-y-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_10rem_8rem_auto] sm:items-center">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-fg">
                  {name}
                  {self && <span className="font-normal text-muted"> ({M.you})</span>}
                </p>
                <p className="text-xs text-muted [overflow-wrap:anywhere]">
                  <span className="sr-only">{M.email}: </span>
                  {m.email}
                </p>
              </div>
              <div>
                {manageable && roles.length > 0 ? (
                  <>
                    <label htmlFor={`${titleId}-${m.userId}`} className="sr-only">
                      {M.roleOf(name)}
                    </label>
                    <select
                      id={`${titleId}-${m.userId}`}
                      value={m.role}
                      disabled={busy !== null}
                      onChange={(e) => void changeRole(m, e.target.value as MemberRole)}
                      className={`${inputClasses} h-9 border-line-strong text-base sm:text-sm`}
                    >
                      {roles.map((r) => (
                        <option key={r} value={r}>
                          {roleName(r)}
                        </option>
                      ))}
                    </select>
                  </>
                ) : (
                  <span className="text-sm text-fg">
                    <span className="sr-only">{M.role}: </span>
                    {roleName(m.role)}
                  </span>
                )}
              </div>
              <p className="text-xs text-muted">
                <span className="sr-only">{M.joined}: </span>
                <span aria-hidden="true" className="sm:hidden">
                  {M.joined}{" "}
                </span>
                {formatDay(m.addedAt)}
              </p>
              <div className="flex gap-2 sm:justify-end">
                {manageable && (
                  <Button variant="ghost" size="sm" aria-label={M.removeOf(name)} disabled={busy !== null} onClick={() => setPending({ kind: "remove", member: m })}>
                    <TrashIcon size={15} /> {M.remove}
                  </Button>
                )}
                {self && m.role !== "owner" && (
                  <Button variant="ghost" size="sm" disabled={busy !== null} onClick={() => setPending({ kind: "leave" })}>
                    <LogOutIcon size={15} /> {M.leave}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={pending?.kind === "remove" ? M.confirmRemove.title(personName(pending.member)) : M.confirmLeave.title(team.workspace.name)}
        description={
          pending?.kind === "remove" ? M.confirmRemove.description(personName(pending.member), team.workspace.name) : M.confirmLeave.description
        }
        confirmLabel={pending?.kind === "remove" ? M.confirmRemove.confirm : M.confirmLeave.confirm}
        cancelLabel={M.cancel}
        busy={busy !== null}
        onConfirm={confirm}
      />
    </section>
  );
}
