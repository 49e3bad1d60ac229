/**
 * The Code tab's "Signed visitors" section: the assistant's identity secret (none /
 * current, masked, with its creation time / the previous one and until when it still works),
 * Create secret or Rotate (grace picked from `visitorIdentity.graceHours.options`, rotation
 * confirmed first), the new secret shown once with Copy, End grace now, and how a site uses it
 * (`data-user-token` and the README's signing examples).
 */
import { useCallback, useEffect, useId, useRef, useState } from "react";
import {
  appMessages,
  publicAssistantUi,
  timeFormat,
  visitorIdentity,
  visitorIdentityUi as L,
  type PublicAssistant,
} from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { formatTime } from "../../lib/format";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { useLoaded } from "../../lib/use-loaded";
import { toast } from "../../stores/toast";
import { FormAlert, RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { KeyIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { CodeBlock } from "./secret-keys-section";

export function SignedVisitorsSection({ assistant }: { assistant: PublicAssistant }) {
  const headingId = useId();
  const graceId = useId();
  const fetchStatus = useCallback((signal?: AbortSignal) => publicAssistantsApi.identitySecret(assistant._id, signal), [assistant._id]);
  const { state, reload: load, set: setState } = useLoaded(fetchStatus, L.loadFailed);
  const [grace, setGrace] = useState<number>(visitorIdentity.graceHours.default);
  const [busy, setBusy] = useState<"create" | "grace" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The one time the secret exists in the browser: cleared when the owner is done or leaves.
  const [secret, setSecret] = useState<string | null>(null);
  const secretRef = useRef<HTMLPreElement>(null);

  useEffect(() => {
    if (secret) secretRef.current?.focus();
  }, [secret]);

  const rotate = async () => {
    setBusy("create");
    setFailure(null);
    try {
      const created = await publicAssistantsApi.rotateIdentitySecret(assistant._id, grace);
      setSecret(created.secret);
      setState({ kind: "ready", value: { current: created.current, previous: created.previous } });
    } catch (err) {
      setFailure(errorMessage(err, L.createFailed));
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };

  const endGrace = async () => {
    setBusy("grace");
    try {
      setState({ kind: "ready", value: await publicAssistantsApi.endIdentityGrace(assistant._id) });
      toast({ variant: "success", description: L.graceEnded });
    } catch (err) {
      toast({ variant: "destructive", title: L.endGraceFailed, description: errorMessage(err, L.endGraceFailed) });
    } finally {
      setBusy(null);
    }
  };

  const status = state.kind === "ready" ? state.value : null;
  const hasSecret = Boolean(status?.current);

  return (
    <section aria-labelledby={headingId} className="space-y-4 border-t border-line pt-5">
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-fg">
        <KeyIcon size={16} /> {L.sectionTitle}
      </h3>
      <p className="text-xs text-muted">{L.intro}</p>

      <div aria-live="polite" className="rounded-lg border border-line bg-subtle px-3.5 py-3 text-sm">
        <p className="font-medium text-fg">{L.statusLabel}</p>
        {state.kind === "loading" && (
          <div className="flex h-10 items-center text-faint" role="status">
            <Spinner size={16} />
            <span className="sr-only">{appMessages.loading}</span>
          </div>
        )}
        {state.kind === "error" && <RetryAlert message={state.message} onRetry={() => void load()} />}
        {status && !status.current && <p className="mt-1 text-xs text-muted">{L.none}</p>}
        {status?.current && (
          <p className="mt-1 font-mono text-xs [overflow-wrap:anywhere] text-muted">{L.current(status.current.masked, formatTime(status.current.createdAt, timeFormat.elsewhere))}</p>
        )}
        {status?.previous && (
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
            <p className="font-mono text-xs [overflow-wrap:anywhere] text-muted">
              {L.previous(status.previous.masked, formatTime(status.previous.expiresAt, timeFormat.elsewhere))}
            </p>
            <Button size="sm" variant="secondary" aria-label={L.endGraceLabel} busy={busy === "grace"} disabled={busy !== null} onClick={() => void endGrace()}>
              {L.endGrace}
            </Button>
          </div>
        )}
      </div>

      {secret && (
        <div className="space-y-2 rounded-lg border border-accent/40 bg-accent/5 p-3.5">
          <p className="text-sm font-medium text-fg">{L.newSecretTitle}</p>
          <CodeBlock label={L.newSecretLabel} text={secret} blockRef={secretRef} />
          <p className="text-xs font-medium text-fg" role="note">
            {L.newSecretNote}
          </p>
          <Button type="button" variant="secondary" size="sm" onClick={() => setSecret(null)}>
            {L.newSecretDone}
          </Button>
        </div>
      )}

      {status && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          {hasSecret && (
            <div className="flex-1 space-y-1.5">
              <label htmlFor={graceId} className="block text-sm font-medium text-fg">
                {L.graceLabel}
              </label>
              <select id={graceId} value={grace} onChange={(e) => setGrace(Number(e.target.value))} className={`${inputClasses} border-line-strong text-base sm:text-sm`}>
                {visitorIdentity.graceHours.options.map((hours) => (
                  <option key={hours} value={hours}>
                    {L.graceOption(hours)}
                  </option>
                ))}
              </select>
            </div>
          )}
          <Button busy={busy === "create"} disabled={busy !== null} onClick={() => (hasSecret ? setConfirming(true) : void rotate())}>
            {busy === "create" ? L.working : hasSecret ? L.rotate : L.create}
          </Button>
        </div>
      )}
      {failure && <FormAlert message={failure} />}

      <div className="space-y-2">
        <p className="text-sm font-medium text-fg">{L.howToTitle}</p>
        <p className="text-xs text-muted">{L.howTo}</p>
        <CodeBlock label={L.snippetLabel} text={L.snippet(window.location.origin)} />
        <details className="rounded-lg border border-line px-3.5 py-2.5 text-sm">
          <summary className="cursor-pointer font-medium text-fg">{L.examplesTitle}</summary>
          <div className="mt-3 space-y-3">
            <CodeBlock label={L.nodeExampleLabel} text={L.nodeExample} />
            <CodeBlock label={L.pythonExampleLabel} text={L.pythonExample} />
          </div>
        </details>
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => (open ? undefined : setConfirming(false))}
        title={L.confirmRotate.title}
        description={L.confirmRotate.description(L.graceOption(grace))}
        confirmLabel={L.confirmRotate.confirm}
        cancelLabel={publicAssistantUi.confirm.cancel}
        busy={busy === "create"}
        onConfirm={rotate}
      />
    </section>
  );
}
