/**
 * The screen's confirmed actions: Delete (assistant), Regenerate Key and removing a knowledge file.
 * Each asks first (spec section 8 "Confirmations"; Regenerate Key's question is Tala's own, since the
 * old key stops working on the owner's site at once), then calls the API, toasts, and reloads.
 */
import { useState } from "react";
import {
  confirmations,
  publicAssistantMessages as M,
  publicAssistantUi,
  successMessages,
  type KnowledgeFile,
  type PublicAssistant,
} from "../../../../contract";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { failureToast, usePublicAssistants } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { ConfirmDialog } from "../ui/dialog";
import { DeleteAssistantDetails, useDeleteAssistantDetails } from "./delete-assistant-details";
import { deleteFileFailureText } from "./failure-text";

export type PendingConfirmation =
  | { kind: "delete"; assistant: PublicAssistant }
  | { kind: "regenerate"; assistant: PublicAssistant }
  | { kind: "deleteFile"; assistant: PublicAssistant; file: KnowledgeFile };

const C = publicAssistantUi.confirm;

export function ConfirmActions({
  pending,
  onDone,
  onChanged,
}: {
  pending: PendingConfirmation;
  /** The dialog is done (confirmed or not, the action succeeded or not): close it. */
  onDone: () => void;
  /** After a confirmed action, whatever its outcome: what to read again. Default: the list of assistants. */
  onChanged?: (result: { kind: PendingConfirmation["kind"]; ok: boolean }) => void;
}) {
  const [busy, setBusy] = useState(false);
  const { load, setFullKey, forgetKey } = usePublicAssistants.getState();

  const run = async () => {
    setBusy(true);
    const { assistant } = pending;
    let ok = true;
    try {
      if (pending.kind === "delete") {
        await publicAssistantsApi.remove(assistant._id);
        forgetKey(assistant._id);
        toast({ variant: "success", description: successMessages.assistantDeleted });
      } else if (pending.kind === "regenerate") {
        setFullKey(assistant._id, await publicAssistantsApi.regenerateKey(assistant._id));
        toast({ variant: "success", description: successMessages.keyRegenerated });
      } else {
        await publicAssistantsApi.deleteFile(assistant._id, pending.file._id);
        toast({ variant: "success", description: successMessages.fileDeleted });
      }
    } catch (err) {
      ok = false;
      if (pending.kind === "delete") failureToast(err, M.deleteFailed);
      else if (pending.kind === "regenerate") failureToast(err, M.regenerateKeyFailed);
      else toast({ variant: "destructive", title: M.deleteFileTitle, description: deleteFileFailureText(err) });
    }
    onDone();
    if (onChanged) onChanged({ kind: pending.kind, ok });
    else void load({ quiet: true });
  };

  const text =
    pending.kind === "delete"
      ? { ...confirmations.deleteAssistant, confirm: C.delete }
      : pending.kind === "regenerate"
        ? { title: C.regenerate.title, description: C.regenerate.description, confirm: C.regenerate.confirm }
        : { ...confirmations.deleteFile, confirm: C.delete };

  const dialog = { title: text.title, description: text.description, confirmLabel: text.confirm, busy, run, onDone };
  return pending.kind === "delete" ? <DeleteAssistantQuestion assistant={pending.assistant} {...dialog} /> : <Question {...dialog} />;
}

interface QuestionProps {
  title: string;
  description: string;
  confirmLabel: string;
  busy: boolean;
  run: () => Promise<void>;
  onDone: () => void;
}

function Question({ title, description, confirmLabel, busy, run, onDone }: QuestionProps) {
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onDone())}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      cancelLabel={C.cancel}
      busy={busy}
      onConfirm={run}
    />
  );
}

/** The spec's question, then the assistant's name and what goes with it; its name typed when it has had conversations. */
function DeleteAssistantQuestion({ assistant, title, description, confirmLabel, busy, run, onDone }: QuestionProps & { assistant: PublicAssistant }) {
  const details = useDeleteAssistantDetails(assistant);
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onDone())}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      cancelLabel={C.cancel}
      busy={busy}
      confirmDisabled={!details.ready}
      onConfirm={run}
    >
      <DeleteAssistantDetails assistant={assistant} details={details} />
    </ConfirmDialog>
  );
}
