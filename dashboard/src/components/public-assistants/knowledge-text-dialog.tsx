/**
 * The "Add text" / "Edit text" dialog of the Knowledge tab: a title and a large text with a
 * character counter against the contract's limit. Editing reads the text first (GET …/texts/{id});
 * saving indexes it (again) before the server answers, while the table shows its row processing.
 * An error is shown at its field with the server's message, and everything typed stays.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  knowledgeTextBody,
  knowledgeTextLimits,
  knowledgeTextUi as L,
  type KnowledgeFile,
  type KnowledgeTextResponse,
} from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { knowledgeTextsApi } from "../../lib/knowledge-texts-api";
import { useFormAction } from "../../lib/use-form-action";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { inputClasses, TextField } from "../ui/field";
import { Spinner } from "../ui/spinner";

/** What the dialog works on: a new text, or an existing one to edit. */
export type KnowledgeTextTarget = { mode: "add" } | { mode: "edit"; file: KnowledgeFile };

export interface KnowledgeTextDialogProps {
  assistantId: string;
  /** Null: closed. */
  target: KnowledgeTextTarget | null;
  onClose: () => void;
  /** The row to show as processing while the save runs; null once it answered. */
  onSaving: (row: KnowledgeFile | null) => void;
  onSaved: (text: KnowledgeTextResponse, mode: KnowledgeTextTarget["mode"]) => void;
}

/** The table's row for a text being saved: processing, with what is known before the answer. */
export function pendingTextRow(target: KnowledgeTextTarget, title: string, content: string, now = Date.now()): KnowledgeFile {
  const size = new TextEncoder().encode(content).byteLength;
  if (target.mode === "edit") return { ...target.file, name: title, size, status: "processing", error: null };
  return { _id: `pending-text-${now}`, name: title, size, uploadedAt: now, status: "processing", error: null, chunkCount: 0, kind: "text" };
}

export function KnowledgeTextDialog(props: KnowledgeTextDialogProps) {
  const [submitting, setSubmitting] = useState(false);
  const { target } = props;
  const key = target?.mode === "edit" ? target.file._id : "add";
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      title={target?.mode === "edit" ? L.editTitle : L.addTitle}
      description={L.description}
      size="lg"
      locked={submitting}
      footer={
        <>
          <Button variant="secondary" onClick={props.onClose} disabled={submitting}>
            {L.cancel}
          </Button>
          <Button type="submit" form={`knowledge-text-${key}`} busy={submitting}>
            {L.save}
          </Button>
        </>
      }
    >
      {target ? <TextForm key={key} {...props} formId={`knowledge-text-${key}`} target={target} onSubmitting={setSubmitting} /> : null}
    </Modal>
  );
}

function TextForm({
  assistantId,
  target,
  formId,
  onSubmitting,
  onSaving,
  onSaved,
}: KnowledgeTextDialogProps & { target: KnowledgeTextTarget; formId: string; onSubmitting: (busy: boolean) => void }) {
  const form = useFormAction();
  const formRef = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState(target.mode === "edit" ? target.file.name : "");
  const [content, setContent] = useState("");
  const [loading, setLoading] = useState(target.mode === "edit");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const contentId = useId();
  const editId = target.mode === "edit" ? target.file._id : null;

  useEffect(() => {
    if (!editId) return;
    const controller = new AbortController();
    setLoading(true);
    setLoadError(null);
    knowledgeTextsApi
      .get(assistantId, editId, controller.signal)
      .then((text) => {
        setTitle(text.title);
        setContent(text.content);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoadError(errorMessage(err, L.loadFailed));
        setLoading(false);
      });
    return () => controller.abort();
  }, [assistantId, editId, attempt]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (loading || loadError || form.submitting) return;
    const body = form.validate(knowledgeTextBody, { title, content }, formRef.current);
    if (!body) return;
    onSubmitting(true);
    onSaving(pendingTextRow(target, body.title, body.content));
    let saved: KnowledgeTextResponse | null = null;
    await form.run(
      async () => {
        saved = editId ? await knowledgeTextsApi.save(assistantId, editId, body) : await knowledgeTextsApi.add(assistantId, body);
      },
      L.saveFailed,
      { form: formRef.current },
    );
    onSaving(null);
    onSubmitting(false);
    if (saved) onSaved(saved, target.mode);
  };

  if (loading) {
    return (
      <p className="flex items-center gap-2 py-10 text-sm text-muted" role="status">
        <Spinner size={16} /> {L.loading}
      </p>
    );
  }
  if (loadError) {
    return (
      <div className="space-y-3">
        <FormAlert message={loadError} />
        <Button variant="secondary" size="sm" onClick={() => setAttempt((n) => n + 1)}>
          {L.retry}
        </Button>
      </div>
    );
  }

  const max = knowledgeTextLimits.maxContentChars;
  const over = content.length > max;
  const contentError = form.fields.content;
  return (
    <form id={formId} ref={formRef} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <FormAlert message={form.error} />
      <TextField
        label={L.titleLabel}
        name="title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={form.fields.title}
        hint={L.titleHint}
        autoComplete="off"
        readOnly={form.submitting}
      />
      <div>
        <label htmlFor={contentId} className="mb-1.5 block text-sm font-medium text-fg">
          {L.contentLabel}
        </label>
        <textarea
          id={contentId}
          name="content"
          value={content}
          rows={14}
          onChange={(e) => setContent(e.target.value)}
          readOnly={form.submitting}
          aria-invalid={contentError || over ? true : undefined}
          aria-describedby={`${contentId}-counter${contentError ? ` ${contentId}-error` : ""}`}
          className={`${inputClasses} h-auto min-h-48 resize-y py-2 leading-relaxed ${contentError || over ? "border-danger" : "border-line-strong"}`}
        />
        <div className="mt-1.5 flex flex-wrap items-start justify-between gap-x-3 gap-y-1 text-xs">
          {contentError ? (
            <p id={`${contentId}-error`} className="font-medium text-danger">
              {contentError}
            </p>
          ) : (
            <span />
          )}
          <p id={`${contentId}-counter`} className={`ml-auto tabular-nums ${over ? "font-medium text-danger" : "text-muted"}`}>
            {L.counter(content.length, max)}
          </p>
        </div>
      </div>
    </form>
  );
}
