/**
 * The Projects dialogs: create (name + instructions), rename, and the delete confirmation (its chats
 * are kept). Each validates with the contract's request schema, shows the server's field errors,
 * and reports success with a toast.
 */
import { useId, useState, type FormEvent } from "react";
import { createProjectBody, projectLimits, projectUi, type Project } from "../../../../contract";
import { errorMessage, fieldErrors } from "../../lib/api";
import { chatApi } from "../../lib/chat-api";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { ConfirmDialog, Modal } from "../ui/dialog";
import { inputClasses, TextField } from "../ui/field";
import { FormAlert } from "../ui/alert";

/** A labelled textarea for a project's instructions (the system prompt of its chats). */
export function InstructionsField({
  value,
  onChange,
  error,
  rows = 6,
  label = projectUi.instructions,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  rows?: number;
  label?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-fg">
        {label}
      </label>
      <textarea
        id={id}
        name="instructions"
        value={value}
        rows={rows}
        maxLength={projectLimits.maxInstructionsChars}
        onChange={(e) => onChange(e.target.value)}
        placeholder={projectUi.instructionsPlaceholder}
        aria-describedby={`${id}-hint`}
        aria-invalid={error ? true : undefined}
        className={`${inputClasses} h-auto min-h-28 resize-y py-2 leading-relaxed ${error ? "border-danger" : "border-line-strong"}`}
      />
      <p id={`${id}-hint`} className={`mt-1.5 text-xs ${error ? "font-medium text-danger" : "text-muted"}`}>
        {error ?? projectUi.instructionsHint}
      </p>
    </div>
  );
}

export function CreateProjectDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (project: Project) => void }) {
  const [name, setName] = useState("");
  const [instructions, setInstructions] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const parsed = createProjectBody.safeParse({ name, instructions });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const project = await chatApi.createProject(parsed.data);
      toast({ description: projectUi.created, variant: "success" });
      onCreated(project);
    } catch (err) {
      setErrors(fieldErrors(err));
      setFailure(errorMessage(err, projectUi.createFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={projectUi.createTitle}
      description={projectUi.createDescription}
      locked={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {projectUi.cancel}
          </Button>
          <Button type="submit" form="create-project" busy={busy}>
            {projectUi.create}
          </Button>
        </>
      }
    >
      <form id="create-project" onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <FormAlert message={failure} />
        <TextField
          label={projectUi.name}
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          placeholder={projectUi.namePlaceholder}
          maxLength={projectLimits.maxNameChars}
          autoFocus
        />
        <InstructionsField value={instructions} onChange={setInstructions} error={errors.instructions} />
      </form>
    </Modal>
  );
}

export function RenameProjectDialog({ project, onClose, onRenamed }: { project: Project; onClose: () => void; onRenamed: (project: Project) => void }) {
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = createProjectBody.shape.name.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setBusy(true);
    try {
      const updated = await chatApi.updateProject(project.id, { name: parsed.data });
      toast({ description: projectUi.renamed, variant: "success" });
      onRenamed(updated);
    } catch (err) {
      setError(fieldErrors(err).name ?? errorMessage(err, projectUi.saveFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={projectUi.renameTitle}
      size="sm"
      locked={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {projectUi.cancel}
          </Button>
          <Button type="submit" form="rename-project" busy={busy}>
            {projectUi.save}
          </Button>
        </>
      }
    >
      <form id="rename-project" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={projectUi.name} name="name" value={name} onChange={(e) => setName(e.target.value)} error={error} maxLength={projectLimits.maxNameChars} autoFocus />
      </form>
    </Modal>
  );
}

export function DeleteProjectDialog({ project, onClose, onDeleted }: { project: Project; onClose: () => void; onDeleted: () => void }) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await chatApi.deleteProject(project.id);
      toast({ description: projectUi.deleted, variant: "success" });
      onDeleted();
    } catch (err) {
      toast({ variant: "destructive", title: projectUi.deleteFailed, description: errorMessage(err, projectUi.deleteFailed) });
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={projectUi.deleteConfirm.title}
      description={projectUi.deleteConfirm.description}
      confirmLabel={projectUi.delete}
      cancelLabel={projectUi.cancel}
      onConfirm={confirm}
      busy={busy}
    />
  );
}
