/**
 * The Webhooks tab of an assistant's page: the endpoints (URL, events, on / off / disabled with
 * its reason, failing since, the last delivery), Add endpoint, the secret shown once after Add and
 * Rotate, Edit, Turn on / off (a disabled one too), Delete after a confirmation naming the URL,
 * Send test event, each endpoint's deliveries, and how to verify a signature.
 */
import { useCallback, useId, useState } from "react";
import { webhookLimits, webhooksUi as W, type PublicAssistant, type Webhook, type WebhooksResponse } from "../../../../../contract";
import { errorMessage } from "../../../lib/api";
import { useLoaded } from "../../../lib/use-loaded";
import { webhooksApi } from "../../../lib/webhooks-api";
import { toast } from "../../../stores/toast";
import { RetryAlert } from "../../ui/alert";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/dialog";
import { CodeIcon, LockIcon, PlusIcon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { WebhookFormDialog, type WebhookFormTarget } from "./webhook-form-dialog";
import { WebhookRow } from "./webhook-row";
import { WebhookSecretDialog } from "./webhook-secret-dialog";

type Pending = { kind: "delete" | "rotate"; webhook: Webhook } | null;

export function WebhooksPanel({ assistant }: { assistant: PublicAssistant }) {
  const assistantId = assistant._id;
  const headingId = useId();
  const fetchList = useCallback((signal?: AbortSignal) => webhooksApi.list(assistantId, signal), [assistantId]);
  const { state, reload, set } = useLoaded(fetchList, W.loadFailed);
  const [form, setForm] = useState<WebhookFormTarget | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string; rotated: boolean } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  const replace = (webhook: Webhook) =>
    set((s) => (s.kind === "ready" ? { kind: "ready", value: { ...s.value, webhooks: s.value.webhooks.map((w) => (w.id === webhook.id ? webhook : w)) } } : s));

  const confirmPending = async () => {
    if (!pending) return;
    setBusy(true);
    const { kind, webhook } = pending;
    try {
      if (kind === "delete") {
        await webhooksApi.remove(assistantId, webhook.id);
        set((s) => (s.kind === "ready" ? { kind: "ready", value: { ...s.value, webhooks: s.value.webhooks.filter((w) => w.id !== webhook.id) } } : s));
        toast({ variant: "success", title: W.deleted });
      } else {
        const value = await webhooksApi.rotateSecret(assistantId, webhook.id);
        setSecret({ url: webhook.url, secret: value, rotated: true });
        void reload();
      }
      setPending(null);
    } catch (err) {
      toast({ variant: "destructive", title: errorMessage(err, kind === "delete" ? W.deleteFailed : W.rotateFailed) });
    } finally {
      setBusy(false);
    }
  };

  const list: WebhooksResponse | null = state.kind === "ready" ? state.value : null;
  const full = (list?.webhooks.length ?? 0) >= webhookLimits.maxPerAssistant;
  const addButton = (
    <Button size="sm" onClick={() => setForm({ mode: "add" })} disabled={full} title={full ? W.addFull(webhookLimits.maxPerAssistant) : undefined}>
      <PlusIcon size={14} /> {W.add}
    </Button>
  );

  return (
    <section aria-labelledby={headingId} className="space-y-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-fg">
            {W.title}
          </h2>
          <p className="mt-0.5 max-w-2xl text-sm text-muted">{W.intro}</p>
        </div>
        {list && list.webhooks.length > 0 ? <div className="shrink-0">{addButton}</div> : null}
      </div>
      {full ? <p className="text-xs text-muted">{W.addFull(webhookLimits.maxPerAssistant)}</p> : null}

      {state.kind === "loading" ? (
        <div role="status" className="flex min-h-24 items-center justify-center">
          <Spinner size={18} />
        </div>
      ) : state.kind === "error" ? (
        <RetryAlert message={state.message} onRetry={() => void reload()} />
      ) : state.value.webhooks.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-5 py-10 text-center">
          <div className="flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-text">
            <CodeIcon size={18} />
          </div>
          <h3 className="mt-3 text-sm font-semibold text-fg">{W.emptyTitle}</h3>
          <p className="mt-1.5 mb-4 max-w-lg text-sm text-muted">{W.emptyText}</p>
          {addButton}
        </div>
      ) : (
        <ul aria-label={W.listLabel} className="space-y-3">
          {state.value.webhooks.map((webhook) => (
            <WebhookRow
              key={webhook.id}
              assistantId={assistantId}
              webhook={webhook}
              onChanged={replace}
              onEdit={() => setForm({ mode: "edit", webhook })}
              onDelete={() => setPending({ kind: "delete", webhook })}
              onRotate={() => setPending({ kind: "rotate", webhook })}
              onActivity={() => void reload()}
            />
          ))}
        </ul>
      )}

      <VerifyHelp />

      <WebhookFormDialog
        assistantId={assistantId}
        target={form}
        events={list?.events.length ? list.events : webhookLimits.events}
        onClose={() => setForm(null)}
        onCreated={(webhook, value) => {
          setForm(null);
          set((s) => (s.kind === "ready" ? { kind: "ready", value: { ...s.value, webhooks: [...s.value.webhooks, webhook] } } : s));
          setSecret({ url: webhook.url, secret: value, rotated: false });
        }}
        onSaved={(webhook) => {
          setForm(null);
          replace(webhook);
          toast({ variant: "success", title: W.form.saved });
        }}
      />
      <WebhookSecretDialog shown={secret} onDone={() => setSecret(null)} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === "rotate" ? W.rotateTitle : W.deleteTitle}
        description={pending ? (pending.kind === "rotate" ? W.rotateConfirm(pending.webhook.url) : W.deleteConfirm(pending.webhook.url)) : ""}
        confirmLabel={pending?.kind === "rotate" ? W.rotate : W.delete}
        cancelLabel={W.cancel}
        busy={busy}
        onConfirm={() => void confirmPending()}
      />
    </section>
  );
}

function VerifyHelp() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-subtle px-4 py-3.5">
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold text-fg">
        <LockIcon size={15} /> {W.verify.title}
      </h3>
      <p className="mt-1.5 text-sm break-words text-muted">
        {W.verify.text(webhookLimits.signatureHeader, webhookLimits.eventIdHeader, webhookLimits.signatureToleranceSeconds)}
      </p>
      <p className="mt-1.5 text-sm text-muted">{W.verify.readme}</p>
    </section>
  );
}
