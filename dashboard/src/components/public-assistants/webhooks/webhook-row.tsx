/**
 * One webhook endpoint as a card: its URL and description, its events as chips, its state (on,
 * off, or disabled with the server's reason; failing since; the last delivery), and its actions:
 * Deliveries (opens the list under it), Send test event, Edit, Turn on / off, Rotate secret, Delete.
 */
import { useId, useState } from "react";
import { webhooksUi as W, type Webhook } from "../../../../../contract";
import { errorMessage } from "../../../lib/api";
import { formatTime } from "../../../lib/format";
import { webhooksApi } from "../../../lib/webhooks-api";
import { toast } from "../../../stores/toast";
import { Button } from "../../ui/button";
import { AlertIcon, ChevronDownIcon, PencilIcon, TrashIcon } from "../../ui/icons";
import { WebhookDeliveries } from "./webhook-deliveries";

export type WebhookState = "on" | "off" | "disabled";
/** Disabled: turned off by the server (its reason says why); off: turned off by the owner. */
export const webhookState = (w: Webhook): WebhookState => (w.enabled ? "on" : w.disabledReason ? "disabled" : "off");

const tone: Record<WebhookState, string> = {
  on: "bg-success-soft text-success",
  off: "bg-subtle text-muted",
  disabled: "bg-danger-soft text-danger",
};

export function WebhookRow({
  assistantId,
  webhook,
  onChanged,
  onEdit,
  onDelete,
  onRotate,
  onActivity,
}: {
  assistantId: string;
  webhook: Webhook;
  onChanged: (webhook: Webhook) => void;
  onEdit: () => void;
  onDelete: () => void;
  onRotate: () => void;
  /** A delivery was queued or the deliveries read again: the host reads the endpoints again (last delivery, failing since). */
  onActivity: () => void;
}) {
  const urlId = useId();
  const deliveriesId = useId();
  const [showDeliveries, setShowDeliveries] = useState(false);
  // A new value remounts the deliveries list: it reads again after a test event.
  const [deliveriesKey, setDeliveriesKey] = useState(0);
  const [busy, setBusy] = useState<"toggle" | "test" | null>(null);
  const state = webhookState(webhook);

  const toggle = async () => {
    setBusy("toggle");
    try {
      const next = await webhooksApi.update(assistantId, webhook.id, { enabled: !webhook.enabled });
      onChanged(next);
      toast({ variant: "success", title: next.enabled ? W.turnedOn : W.turnedOff });
    } catch (err) {
      toast({ variant: "destructive", title: errorMessage(err, W.toggleFailed) });
    } finally {
      setBusy(null);
    }
  };

  const test = async () => {
    setBusy("test");
    try {
      await webhooksApi.test(assistantId, webhook.id);
      toast({ variant: "success", title: W.testSent });
      setShowDeliveries(true);
      setDeliveriesKey((n) => n + 1);
      onActivity();
    } catch (err) {
      toast({ variant: "destructive", title: errorMessage(err, W.testFailed) });
    } finally {
      setBusy(null);
    }
  };

  const last = webhook.lastDelivery;
  const lastText = last
    ? (last.ok ? W.lastOk : W.lastFailed)(last.status === null ? W.noStatus : `HTTP ${last.status}`, formatTime(last.at))
    : W.noDelivery;

  return (
    <li aria-labelledby={urlId} className="min-w-0 rounded-xl border border-line bg-surface p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <span id={urlId} className="min-w-0 font-mono text-sm break-all text-fg">
              {webhook.url}
            </span>
            <span className={`rounded-full px-2 py-px text-[11px] font-medium ${tone[state]}`}>{W.state[state]}</span>
          </p>
          {webhook.description ? <p className="text-sm break-words text-muted">{webhook.description}</p> : null}
          <ul aria-label={W.form.events} className="flex flex-wrap gap-1.5 pt-0.5">
            {webhook.events.map((e) => (
              <li key={e} className="rounded-full bg-subtle px-2 py-0.5 font-mono text-[11px] text-fg" title={W.events[e]}>
                {e}
              </li>
            ))}
          </ul>
        </div>
        <p className="shrink-0 text-xs text-muted">{W.secretHint(webhook.secretHint)}</p>
      </div>

      {state === "disabled" ? (
        <p role="note" className="mt-3 flex items-start gap-2 rounded-lg border border-danger-line bg-danger-soft px-3 py-2 text-sm text-danger">
          <AlertIcon size={15} className="mt-0.5 shrink-0" /> {webhook.disabledReason}
        </p>
      ) : webhook.failingSince !== undefined ? (
        <p className="mt-3 flex items-start gap-2 rounded-lg border border-warning-line bg-warning-soft px-3 py-2 text-sm text-warning-fg">
          <AlertIcon size={15} className="mt-0.5 shrink-0" /> {W.failingSince(formatTime(webhook.failingSince))}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-muted">
        {W.lastDelivery}: {lastText}
      </p>

      <div role="group" aria-label={W.actionsOf(webhook.url)} className="mt-3 flex flex-wrap gap-2 border-t border-line pt-3">
        <Button variant="secondary" size="sm" aria-expanded={showDeliveries} aria-controls={deliveriesId} onClick={() => setShowDeliveries((s) => !s)}>
          {W.deliveries.show}
          <ChevronDownIcon size={14} className={showDeliveries ? "rotate-180" : ""} />
        </Button>
        <Button variant="secondary" size="sm" busy={busy === "test"} disabled={busy !== null} onClick={() => void test()}>
          {W.test}
        </Button>
        <Button variant="secondary" size="sm" onClick={onEdit}>
          <PencilIcon size={14} /> {W.edit}
        </Button>
        <Button variant="secondary" size="sm" busy={busy === "toggle"} disabled={busy !== null} onClick={() => void toggle()}>
          {webhook.enabled ? W.turnOff : W.turnOn}
        </Button>
        <Button variant="secondary" size="sm" onClick={onRotate}>
          {W.rotate}
        </Button>
        <Button variant="danger" size="sm" onClick={onDelete}>
          <TrashIcon size={14} /> {W.delete}
        </Button>
      </div>

      <div id={deliveriesId} hidden={!showDeliveries} className="mt-3">
        {showDeliveries ? <WebhookDeliveries key={deliveriesKey} assistantId={assistantId} webhookId={webhook.id} onActivity={onActivity} /> : null}
      </div>
    </li>
  );
}
