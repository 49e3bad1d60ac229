/**
 * The integration dialog's "API keys" section: what the publishable key and secret keys are for,
 * the OpenAI-compatible sample (a secret-key placeholder), and the assistant's secret keys: list
 * (name, masked, created, last used), create with a name (the value shown once, with Copy), revoke
 * after a confirmation.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type Ref } from "react";
import {
  appMessages,
  assistantSecretKey,
  publicAssistantMessages,
  publicAssistantUi,
  secretKeyUi as L,
  successMessages,
  type PublicAssistant,
  type SecretKey,
} from "../../../../contract";
import { errorMessage, fieldErrors } from "../../lib/api";
import { copyText } from "../../lib/clipboard";
import { formatTime } from "../../lib/format";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { useLoaded } from "../../lib/use-loaded";
import { toast } from "../../stores/toast";
import { FormAlert, RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { TextField } from "../ui/field";
import { CopyIcon, KeyIcon, TrashIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { openAiSample } from "./api-sample";


const codeClasses =
  "overflow-x-auto rounded-lg border border-line bg-neutral-950 px-4 py-3.5 pr-24 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-neutral-100 dark:bg-black";

async function copyWithToast(text: string) {
  try {
    await copyText(text);
    toast({ variant: "success", description: successMessages.contentCopied });
  } catch {
    toast({ variant: "destructive", title: publicAssistantMessages.copyFailed });
  }
}

/** A block of code with a Copy button; `label` names it for screen readers and tests. */
export function CodeBlock({ label, text, blockRef }: { label: string; text: string; blockRef?: Ref<HTMLPreElement> }) {
  return (
    <div className="relative">
      <pre ref={blockRef} aria-label={label} tabIndex={0} className={codeClasses}>
        <code>{text}</code>
      </pre>
      <Button size="sm" variant="secondary" className="absolute top-2 right-2" aria-label={L.copyLabel(label)} onClick={() => void copyWithToast(text)}>
        <CopyIcon size={14} /> {L.copy}
      </Button>
    </div>
  );
}

export function SecretKeysSection({ assistant }: { assistant: PublicAssistant }) {
  const headingId = useId();
  const fetchKeys = useCallback((signal?: AbortSignal) => publicAssistantsApi.secretKeys(assistant._id, signal), [assistant._id]);
  const { state: list, reload: load, set: setList } = useLoaded(fetchKeys, L.loadFailed);
  const [name, setName] = useState("");
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<{ message: string; field?: string } | null>(null);
  // The one time a key's value exists in the browser: cleared once the owner is done, when that
  // key is revoked, or when the dialog closes (this section unmounts).
  const [created, setCreated] = useState<{ id: string; name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<SecretKey | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const newKeyRef = useRef<HTMLPreElement>(null);

  // The new key takes the focus, so a keyboard or screen-reader user lands on what to copy.
  useEffect(() => {
    if (created) newKeyRef.current?.focus();
  }, [created]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const res = await publicAssistantsApi.createSecretKey(assistant._id, name);
      setCreated({ id: res.secretKey.id, name: res.secretKey.name, key: res.key });
      setName("");
      setList((s) => (s.kind === "ready" ? { kind: "ready", value: [res.secretKey, ...s.value] } : s));
    } catch (err) {
      setCreateError({ message: errorMessage(err, L.createFailed), field: fieldErrors(err).name });
    } finally {
      setCreating(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    setRevokeBusy(true);
    try {
      await publicAssistantsApi.revokeSecretKey(assistant._id, revoking.id);
      const revokedId = revoking.id;
      setCreated((c) => (c?.id === revokedId ? null : c));
      toast({ variant: "success", description: L.revoked });
    } catch (err) {
      toast({ variant: "destructive", title: L.revokeFailed, description: errorMessage(err, L.revokeFailed) });
    }
    setRevokeBusy(false);
    setRevoking(null);
    await load();
  };

  return (
    <section aria-labelledby={headingId} className="space-y-4 border-t border-line pt-5">
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-fg">
        <KeyIcon size={16} /> {L.sectionTitle}
      </h3>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div className="rounded-lg border border-line bg-subtle px-3.5 py-3">
          <dt className="font-medium text-fg">{L.publishableTitle}</dt>
          <dd className="mt-1 text-xs text-muted">{L.publishableText}</dd>
        </div>
        <div className="rounded-lg border border-line bg-subtle px-3.5 py-3">
          <dt className="font-medium text-fg">{L.secretTitle}</dt>
          <dd className="mt-1 text-xs text-muted">{L.secretText}</dd>
        </div>
      </dl>

      <CodeBlock label={L.openAiSampleLabel} text={openAiSample(window.location.origin)} />

      {created && (
        <div className="space-y-2 rounded-lg border border-accent/40 bg-accent/5 p-3.5">
          <p className="text-sm font-medium text-fg">{L.newKeyTitle}</p>
          <CodeBlock label={L.newKeyLabel} text={created.key} blockRef={newKeyRef} />
          <p className="text-xs font-medium text-fg">{L.newKeyNote}</p>
          <Button type="button" variant="secondary" size="sm" onClick={() => setCreated(null)}>
            {L.newKeyDone}
          </Button>
        </div>
      )}

      <form onSubmit={(e) => void create(e)} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <TextField
          className="flex-1"
          label={L.nameLabel}
          name="secretKeyName"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={L.namePlaceholder}
          maxLength={assistantSecretKey.maxNameChars}
          error={createError?.field}
          autoComplete="off"
        />
        <Button type="submit" busy={creating} className="sm:mt-7">
          {creating ? L.creating : L.create}
        </Button>
      </form>
      {createError && !createError.field && <FormAlert message={createError.message} />}

      <div aria-live="polite">
        {list.kind === "loading" && (
          <div className="flex h-16 items-center justify-center text-faint" role="status">
            <Spinner size={18} />
            <span className="sr-only">{appMessages.loading}</span>
          </div>
        )}
        {list.kind === "error" && <RetryAlert message={list.message} onRetry={() => void load()} />}
        {list.kind === "ready" && list.value.length === 0 && <p className="text-sm text-muted">{L.empty}</p>}
        {list.kind === "ready" && list.value.length > 0 && (
          <ul aria-label={L.listLabel} className="divide-y divide-line rounded-lg border border-line">
            {list.value.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 px-3.5 py-3">
                <div className="min-w-0 space-y-0.5">
                  <p className="truncate text-sm font-medium text-fg">{key.name}</p>
                  <p className="font-mono text-xs text-muted">{key.masked}</p>
                  <p className="text-xs text-faint">
                    {L.created} {formatTime(key.createdAt)} · {key.lastUsedAt === null ? L.neverUsed : `${L.lastUsed} ${formatTime(key.lastUsedAt)}`}
                  </p>
                </div>
                <Button size="sm" variant="danger" aria-label={L.revokeLabel(key.name)} onClick={() => setRevoking(key)}>
                  <TrashIcon size={14} /> {L.revoke}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => (open ? undefined : setRevoking(null))}
        title={L.confirmRevoke.title}
        description={L.confirmRevoke.description(revoking?.name ?? "")}
        confirmLabel={L.confirmRevoke.confirm}
        cancelLabel={publicAssistantUi.confirm.cancel}
        busy={revokeBusy}
        onConfirm={revoke}
      />
    </section>
  );
}
