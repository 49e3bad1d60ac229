/**
 * One endpoint's recent deliveries, newest first: event, status, HTTP status, duration, attempts,
 * time; Details opens a delivery (its event id, the error, the response's first 1 KB, the next
 * attempt) and Resend queues it again (the same event id). Rows stack on a phone.
 */
import { useCallback, useId, useState } from "react";
import { webhookLimits, webhooksUi, type WebhookDelivery } from "../../../../../contract";
import { errorMessage } from "../../../lib/api";
import { formatTime } from "../../../lib/format";
import { useLoaded } from "../../../lib/use-loaded";
import { webhooksApi } from "../../../lib/webhooks-api";
import { toast } from "../../../stores/toast";
import { RetryAlert } from "../../ui/alert";
import { Button } from "../../ui/button";
import { ChevronDownIcon, RefreshIcon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";

const D = webhooksUi.deliveries;

const statusTone: Record<WebhookDelivery["status"], string> = {
  delivered: "bg-success-soft text-success",
  failed: "bg-danger-soft text-danger",
  retrying: "bg-warning-soft text-warning-fg ring-1 ring-warning-line",
  pending: "bg-subtle text-muted",
};

/**
 * The host remounts it (a new `key`) to read again after it queued a test event; `onActivity`
 * tells the host when the owner refreshed or resent, so the endpoint's own row (last delivery,
 * failing since) is read again too.
 */
export function WebhookDeliveries({ assistantId, webhookId, onActivity }: { assistantId: string; webhookId: string; onActivity: () => void }) {
  const headingId = useId();
  const fetchDeliveries = useCallback((signal?: AbortSignal) => webhooksApi.deliveries(assistantId, webhookId, signal), [assistantId, webhookId]);
  const { state, reload } = useLoaded(fetchDeliveries, D.loadFailed);
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h4 id={headingId} className="text-sm font-semibold text-fg">
          {D.title}
        </h4>
        <Button
          variant="ghost"
          size="sm"
          aria-label={D.refresh}
          onClick={() => {
            void reload();
            onActivity();
          }}
          className="size-8 px-0"
        >
          <RefreshIcon size={15} />
        </Button>
      </div>
      {state.kind === "loading" ? (
        <div role="status" className="flex h-16 items-center justify-center">
          <Spinner size={16} />
        </div>
      ) : state.kind === "error" ? (
        <RetryAlert message={state.message} onRetry={() => void reload()} />
      ) : state.value.length === 0 ? (
        <p className="rounded-lg bg-subtle px-3 py-3 text-sm text-muted">{D.empty}</p>
      ) : (
        <ul className="divide-y divide-line rounded-lg border border-line">
          {state.value.map((d) => (
            <DeliveryRow
              key={d.id}
              assistantId={assistantId}
              webhookId={webhookId}
              delivery={d}
              onResent={() => {
                void reload();
                onActivity();
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function DeliveryRow({ assistantId, webhookId, delivery: d, onResent }: { assistantId: string; webhookId: string; delivery: WebhookDelivery; onResent: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const detailsId = useId();
  const when = formatTime(d.lastAttemptAt ?? d.createdAt);
  const C = D.columns;
  const resend = async () => {
    setBusy(true);
    try {
      await webhooksApi.resend(assistantId, webhookId, d.id);
      toast({ variant: "success", title: D.resent });
      onResent();
    } catch (err) {
      toast({ variant: "destructive", title: errorMessage(err, D.resendFailed) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="px-3 py-2.5 text-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5">
        <span className="min-w-0 font-mono text-[13px] break-all text-fg">{d.type}</span>
        <span className={`rounded-full px-2 py-px text-[11px] font-medium ${statusTone[d.status]}`}>{D.statuses[d.status] ?? d.status}</span>
        <dl className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
          <div>
            <dt className="sr-only">{C.http}</dt>
            <dd className="tabular-nums">{d.responseStatus === null ? D.noResponse : `HTTP ${d.responseStatus}`}</dd>
          </div>
          <div>
            <dt className="sr-only">{C.duration}</dt>
            <dd className="tabular-nums">{d.durationMs === null ? D.noResponse : D.durationMs(d.durationMs)}</dd>
          </div>
          <div>
            <dt className="sr-only">{C.attempts}</dt>
            <dd>{D.attempts(d.attempts)}</dd>
          </div>
          <div>
            <dt className="sr-only">{C.time}</dt>
            <dd>
              <time dateTime={new Date(d.lastAttemptAt ?? d.createdAt).toISOString()}>{when}</time>
            </dd>
          </div>
        </dl>
        <div className="ml-auto flex gap-1.5">
          <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={detailsId} aria-label={D.detailsOf(d.type, when)} onClick={() => setOpen((o) => !o)}>
            {D.details}
            <ChevronDownIcon size={14} className={open ? "rotate-180" : ""} />
          </Button>
          <Button variant="secondary" size="sm" busy={busy} onClick={() => void resend()}>
            {D.resend}
          </Button>
        </div>
      </div>
      <div id={detailsId} hidden={!open} className="mt-2 space-y-2 rounded-lg bg-subtle p-3 text-xs">
        {open ? (
          <>
            <p className="text-muted">
              {D.eventId}: <span className="font-mono break-all text-fg">{d.eventId}</span>
            </p>
            {d.nextAttemptAt !== null && d.status === "retrying" ? <p className="text-muted">{D.nextAttempt(formatTime(d.nextAttemptAt))}</p> : null}
            {d.error ? (
              <p className="text-danger">
                <span className="font-medium">{D.error}: </span>
                {d.error}
              </p>
            ) : null}
            <div>
              <p className="mb-1 font-medium text-muted">{D.response(webhookLimits.responseExcerptBytes)}</p>
              {d.response ? (
                <pre tabIndex={0} className="max-h-48 overflow-auto rounded-md border border-line bg-surface p-2 font-mono text-[12px] break-all whitespace-pre-wrap text-fg">
                  {d.response}
                </pre>
              ) : (
                <p className="text-muted">{D.emptyResponse}</p>
              )}
            </div>
          </>
        ) : null}
      </div>
    </li>
  );
}
