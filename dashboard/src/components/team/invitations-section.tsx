/** The Team page's pending invitations: e-mail, role, who invited, when it expires, and Revoke. */
import { useId, useState } from "react";
import { teamUi, type Invitation } from "../../../../contract";
import { formatTime } from "../../lib/format";
import { teamApi } from "../../lib/team-api";
import { failureToast } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { personName, roleName } from "./team-model";

const I = teamUi.invitations;

export function InvitationsSection({ invitations, onChanged }: { invitations: Invitation[]; onChanged: () => void }) {
  const titleId = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const revoke = async (inv: Invitation) => {
    setBusy(inv.id);
    try {
      await teamApi.revokeInvitation(inv.id);
      toast({ variant: "success", description: I.revoked(inv.email) });
    } catch (err) {
      failureToast(err, I.revokeFailed);
    } finally {
      setBusy(null);
      onChanged();
    }
  };
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-base font-semibold text-fg">
        {I.title}
      </h2>
      {invitations.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line-strong px-4 py-5 text-center text-sm text-muted">{I.empty}</p>
      ) : (
        <ul aria-label={I.listLabel} className="divide-y divide-line rounded-xl border border-line bg-surface">
          {invitations.map((inv) => (
            <li key={inv.id} className="grid gap-x-4 gap-y-1.5 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_7rem_11rem_auto] sm:items-center">
              <div className="min-w-0">
                <p className="text-sm font-medium text-fg [overflow-wrap:anywhere]">{inv.email}</p>
                <p className="text-xs text-muted">{I.invitedBy(personName(inv.invitedBy))}</p>
              </div>
              <p className="text-sm text-fg">
                <span className="sr-only">{I.role}: </span>
                {roleName(inv.role)}
              </p>
              <p className="text-xs text-muted">
                {I.expires} {formatTime(inv.expiresAt)}
              </p>
              <div className="sm:text-right">
                <Button variant="ghost" size="sm" aria-label={I.revokeOf(inv.email)} busy={busy === inv.id} disabled={busy !== null} onClick={() => void revoke(inv)}>
                  {I.revoke}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
