/**
 * Add endpoint / Edit endpoint: the URL, a description, and the events it receives (a checkbox
 * with a one-line explanation each). Checked with the contract's request schema first; the
 * server's 400 (an address refused, too many endpoints) is shown on the field it names.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { webhookCreateBody, webhookLimits, webhookPatchBody, webhooksUi, type Webhook, type WebhookEventType } from "../../../../../contract";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { webhooksApi } from "../../../lib/webhooks-api";
import { FormAlert } from "../../ui/alert";
import { Button } from "../../ui/button";
import { Modal } from "../../ui/dialog";
import { TextField } from "../../ui/field";

const W = webhooksUi.form;
type Slot = "url" | "description" | "events" | "form";

/** Where an error goes: `url`, `description`, `events` (or `events.2`), else above the buttons. */
export function webhookErrorSlots(fields: Record<string, string>): Partial<Record<Slot, string>> {
  const out: Partial<Record<Slot, string>> = {};
  for (const [path, message] of Object.entries(fields)) {
    const head = path.split(".")[0];
    const slot: Slot = head === "url" || head === "description" || head === "events" ? head : "form";
    out[slot] ??= message;
  }
  return out;
}

export type WebhookFormTarget = { mode: "add" } | { mode: "edit"; webhook: Webhook };

export function WebhookFormDialog({
  assistantId,
  target,
  events,
  onClose,
  onCreated,
  onSaved,
}: {
  assistantId: string;
  target: WebhookFormTarget | null;
  /** The event types the server offers (its list answer), in its order. */
  events: readonly WebhookEventType[];
  onClose: () => void;
  onCreated: (webhook: Webhook, secret: string) => void;
  onSaved: (webhook: Webhook) => void;
}) {
  const formId = useId();
  const eventsId = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [chosen, setChosen] = useState<WebhookEventType[]>([]);
  const [errors, setErrors] = useState<Partial<Record<Slot, string>>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!target) return;
    const hook = target.mode === "edit" ? target.webhook : null;
    setUrl(hook?.url ?? "");
    setDescription(hook?.description ?? "");
    setChosen(hook ? [...hook.events] : ["lead.created"]);
    setErrors({});
  }, [target]);

  const toggle = (event: WebhookEventType, on: boolean) => {
    setChosen((list) => (on ? [...list, event] : list.filter((e) => e !== event)));
    setErrors((e) => ({ ...e, events: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const body = { url: url.trim(), description: description.trim(), events: events.filter((ev) => chosen.includes(ev)) };
    const checked = (target.mode === "add" ? webhookCreateBody : webhookPatchBody).safeParse(body);
    if (!checked.success) {
      const fields: Record<string, string> = {};
      for (const issue of checked.error.issues) fields[issue.path.join(".")] ??= issue.message;
      setErrors(webhookErrorSlots(fields));
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      if (target.mode === "add") {
        const created = await webhooksApi.create(assistantId, body);
        onCreated(created.webhook, created.secret);
      } else {
        onSaved(await webhooksApi.update(assistantId, target.webhook.id, body));
      }
    } catch (err) {
      const fields = webhookErrorSlots(fieldErrors(err));
      setErrors(Object.keys(fields).length ? fields : { form: errorMessage(err, target.mode === "add" ? W.createFailed : W.saveFailed) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={target?.mode === "edit" ? W.editTitle : W.addTitle}
      locked={busy}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {webhooksUi.cancel}
          </Button>
          <Button type="submit" form={formId} busy={busy}>
            {target?.mode === "edit" ? W.save : W.create}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <TextField
          label={W.url}
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={W.urlPlaceholder}
          maxLength={webhookLimits.maxUrlChars}
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setErrors((x) => ({ ...x, url: undefined }));
          }}
          hint={W.urlHint}
          error={errors.url}
        />
        <TextField
          label={W.description}
          name="description"
          maxLength={webhookLimits.maxDescriptionChars}
          value={description}
          onChange={(e) => {
            setDescription(e.target.value);
            setErrors((x) => ({ ...x, description: undefined }));
          }}
          hint={W.descriptionHint}
          error={errors.description}
        />
        <fieldset aria-describedby={errors.events ? `${eventsId}-error` : undefined} className="space-y-2">
          <legend className="mb-1.5 text-sm font-medium text-fg">{W.events}</legend>
          {events.map((event) => (
            <EventCheckbox key={event} event={event} checked={chosen.includes(event)} onChange={(on) => toggle(event, on)} />
          ))}
          {errors.events ? (
            <p id={`${eventsId}-error`} className="text-xs font-medium text-danger">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        <FormAlert message={errors.form} />
      </form>
    </Modal>
  );
}

function EventCheckbox({ event, checked, onChange }: { event: WebhookEventType; checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-start gap-2.5 rounded-lg border border-line px-3 py-2">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-help`} className="mt-0.5 size-4 shrink-0 accent-accent" />
      <div className="min-w-0">
        <label htmlFor={id} className="font-mono text-[13px] text-fg">
          {event}
        </label>
        <p id={`${id}-help`} className="text-xs text-muted">
          {webhooksUi.events[event]}
        </p>
      </div>
    </div>
  );
}
