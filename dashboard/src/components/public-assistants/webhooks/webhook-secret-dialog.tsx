/**
 * The endpoint's signing secret, the one time it is shown (after Add and after Rotate): the
 * value, Copy, and "you will not see it again". The value lives only in this dialog's props and
 * is dropped when the owner closes it.
 */
import { useEffect, useId, useRef } from "react";
import { publicAssistantMessages, webhooksUi } from "../../../../../contract";
import { copyText } from "../../../lib/clipboard";
import { toast } from "../../../stores/toast";
import { Button } from "../../ui/button";
import { Modal } from "../../ui/dialog";
import { inputClasses } from "../../ui/field";
import { CopyIcon } from "../../ui/icons";

const S = webhooksUi.secret;

export function WebhookSecretDialog({ shown, onDone }: { shown: { url: string; secret: string; rotated: boolean } | null; onDone: () => void }) {
  const valueRef = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  useEffect(() => {
    if (shown) requestAnimationFrame(() => valueRef.current?.focus());
  }, [shown]);
  const copy = async () => {
    if (!shown) return;
    try {
      await copyText(shown.secret);
      toast({ variant: "success", title: S.copied });
    } catch {
      toast({ variant: "destructive", title: publicAssistantMessages.copyFailed });
    }
  };
  return (
    <Modal
      open={shown !== null}
      onOpenChange={(open) => !open && onDone()}
      title={shown?.rotated ? S.rotatedTitle : S.createdTitle}
      description={shown?.url}
      size="lg"
      footer={<Button onClick={onDone}>{S.done}</Button>}
    >
      <p className="text-sm text-fg">{S.note}</p>
      <label htmlFor={inputId} className="mt-4 mb-1.5 block text-sm font-medium text-fg">
        {S.label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        {/* A text area so the whole secret wraps into view on a phone. */}
        <textarea
          id={inputId}
          ref={valueRef}
          readOnly
          rows={1}
          value={shown?.secret ?? ""}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className={`${inputClasses} h-auto min-h-10 min-w-0 flex-1 resize-none border-line-strong py-2 font-mono text-[13px] break-all [field-sizing:content]`}
        />
        <Button variant="secondary" size="md" aria-label={S.copyLabel} onClick={() => void copy()}>
          <CopyIcon size={14} /> {S.copy}
        </Button>
      </div>
    </Modal>
  );
}
