/**
 * /app/invite?code=…: accepting an invitation. Signed out, the access guard sends the person to
 * sign in (or register, then verify their e-mail) and brings them back here with the code
 * (lib/return-to.ts). Signed in: the code (from the link, or typed by hand) and Accept; every
 * refusal of the server is shown, on the code field when it names it; an invitation for another
 * e-mail offers to sign out and sign in with that one; an unverified e-mail links to verifying it.
 * Accepted: the dashboard switches to that workspace.
 */
import { useId, useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { acceptBody, appRoutes, publicRoutes, teamMessages, teamUi } from "../../../../contract";
import { roleName } from "../../components/team/team-model";
import { FormAlert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { PageContainer, PageHeader } from "../../components/ui/page";
import { ApiError } from "../../lib/api";
import { loginUrlFor, rememberReturnTo } from "../../lib/return-to";
import { signOut } from "../../lib/sign-out";
import { teamApi } from "../../lib/team-api";
import { useFormAction } from "../../lib/use-form-action";
import { useAuth } from "../../stores/auth";
import { toast } from "../../stores/toast";
import { refreshWorkspaces, switchWorkspace } from "../../stores/workspace";

const I = teamUi.invite;

/** The invited e-mail when the refusal is "this invitation is for someone else" (the contract's sentence), else null. */
export function invitedEmailOf(message: string): string | null {
  const [before = "", after = ""] = teamMessages.wrongAccount("\u0000").split("\u0000");
  if (!message.startsWith(before) || !message.endsWith(after) || message.length <= before.length + after.length) return null;
  return message.slice(before.length, message.length - after.length);
}

export default function InvitePage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const user = useAuth((s) => s.user);
  const fromLink = new URLSearchParams(search).get("code") ?? "";
  const [code, setCode] = useState(fromLink);
  const formId = useId();
  const { submitting, error, fields, run, validate } = useFormAction();
  const [refusal, setRefusal] = useState<{ kind: "wrongAccount"; email: string } | { kind: "unverified" } | null>(null);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setRefusal(null);
    const body = validate(acceptBody, { code }, form);
    if (!body) return;
    void run(
      async () => {
        try {
          const workspace = await teamApi.accept(body.code);
          toast({ variant: "success", description: I.accepted(workspace.name, roleName(workspace.role)) });
          switchWorkspace(workspace);
          void refreshWorkspaces();
          navigate(appRoutes.publicAssistants, { replace: true });
        } catch (err) {
          if (err instanceof ApiError && err.fromServer) {
            const invited = invitedEmailOf(err.message);
            if (invited) setRefusal({ kind: "wrongAccount", email: invited });
            else if (err.message === teamMessages.emailNotVerified) setRefusal({ kind: "unverified" });
          }
          throw err;
        }
      },
      I.failed,
      { form, keepBusy: true },
    );
  };

  const here = appRoutes.inviteWithCode(code.trim() || fromLink);
  const switchAccount = async (email: string) => {
    await signOut();
    rememberReturnTo(here);
    navigate(`${loginUrlFor(here)}&email=${encodeURIComponent(email)}`, { replace: true });
  };

  return (
    <PageContainer narrow>
      <PageHeader title={I.title} description={I.description} />
      <div className="mt-6 max-w-lg space-y-4 rounded-xl border border-line bg-surface p-4 sm:p-6">
        {user && <p className="text-sm text-muted">{I.signedInAs(user.email)}</p>}
        {fromLink && <p className="text-sm text-fg">{I.fromLink}</p>}
        <form id={formId} noValidate onSubmit={onSubmit} className="space-y-4">
          <FormAlert message={error} />
          <TextField
            label={I.codeLabel}
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="characters"
            maxLength={64}
            hint={I.codeHint}
            error={fields.code}
          />
          <Button type="submit" busy={submitting}>
            {I.accept}
          </Button>
        </form>
        {refusal?.kind === "wrongAccount" && (
          <Button variant="secondary" onClick={() => void switchAccount(refusal.email)}>
            {I.wrongAccount}
          </Button>
        )}
        {refusal?.kind === "unverified" && user && (
          <Button
            variant="secondary"
            onClick={() => {
              rememberReturnTo(here);
              navigate(`${publicRoutes.verifyEmail}?email=${encodeURIComponent(user.email)}`);
            }}
          >
            {I.verifyEmail}
          </Button>
        )}
      </div>
    </PageContainer>
  );
}
