/**
 * The "Add text" / "Edit text" dialog of the Knowledge tab: a title and a large text with a
 * character counter against the contract's limit. Editing reads the text first (GET …/texts/{id}).
 * Save closes the dialog while the server indexes the text, its row showing processing in the
 * table, as an upload's does; on an error the dialog opens again with everything typed and the
 * server's message at its field. The draft lives here, not in the dialog's content, for that.
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
import { focusFirstInvalid, useFormAction } from "../../lib/use-form-action";
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

export function KnowledgeTextDialog({ assistantId, target, onClose, onSaving, onSaved }: KnowledgeTextDialogProps) {
  const form = useFormAction();
  const { reset } = form;
  const formRef = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const contentId = useId();
  const editId = target?.mode === "edit" ? target.file._id : null;
  const open = target !== null;

  // A new target starts a new draft: empty, or the text as the server has it.
  useEffect(() => {
    reset();
    setTitle(target?.mode === "edit" ? target.file.name : "");
    setContent("");
    setLoadError(null);
    setLoading(!!editId);
    if (!editId) return;
    const controller = new AbortController();
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a draft starts when the dialog opens on a target, not when that target's row changes.
  }, [assistantId, editId, open, attempt, reset]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!target || loading || loadError || saving) return;
    const body = form.validate(knowledgeTextBody, { title, content }, formRef.current);
    if (!body) return;
    setSaving(true);
    onSaving(pendingTextRow(target, body.title, body.content));
    let saved: KnowledgeTextResponse | null = null;
    await form.run(async () => {
      saved = editId ? await knowledgeTextsApi.save(assistantId, editId, body) : await knowledgeTextsApi.add(assistantId, body);
    }, L.saveFailed);
    onSaving(null);
    setSaving(false);
    if (saved) onSaved(saved, target.mode);
  };

  // Back from a failed save: the dialog is open again; its first invalid field takes the focus.
  const failed = !saving && (form.error !== null || Object.keys(form.fields).length > 0);
  useEffect(() => {
    if (failed) focusFirstInvalid(formRef.current);
  }, [failed]);

  const max = knowledgeTextLimits.maxContentChars;
  const over = content.length > max;
  const contentError = form.fields.content;
  const formId = `${contentId}-form`;
  return (
    <Modal
      open={open && !saving}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={target?.mode === "edit" ? L.editTitle : L.addTitle}
      description={L.description}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {L.cancel}
          </Button>
          <Button type="submit" form={formId} disabled={loading || !!loadError}>
            {L.save}
          </Button>
        </>
      }
    >
      {loading ? (
        <p className="flex items-center gap-2 py-10 text-sm text-muted" role="status">
          <Spinner size={16} /> {L.loading}
        </p>
      ) : loadError ? (
        <div className="space-y-3">
          <FormAlert message={loadError} />
          <Button variant="secondary" size="sm" onClick={() => setAttempt((n) => n + 1)}>
            {L.retry}
          </Button>
        </div>
      ) : (
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
      )}
    </Modal>
  );
}
