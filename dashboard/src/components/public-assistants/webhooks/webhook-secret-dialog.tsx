/**
 * The endpoint's signing secret, the one time it is shown (after Add and after Rotate): the
 * value, Copy, and "you will not see it again". The value lives only in this dialog's props and
 * is dropped when the owner closes it.
 */
import { useEffect, useRef } from "react";
import { webhooksUi } from "../../../../../contract";
import { copyText } from "../../../lib/clipboard";
import { toast } from "../../../stores/toast";
import { publicAssistantMessages } from "../../../../../contract";
import { Button } from "../../ui/button";
import { Modal } from "../../ui/dialog";
import { CopyIcon } from "../../ui/icons";

const S = webhooksUi.secret;

export function WebhookSecretDialog({ shown, onDone }: { shown: { url: string; secret: string; rotated: boolean } | null; onDone: () => void }) {
  const valueRef = useRef<HTMLElement>(null);
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
      footer={<Button onClick={onDone}>{S.done}</Button>}
    >
      <p className="text-sm text-fg">{S.note}</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          ref={valueRef}
          tabIndex={0}
          aria-label={S.label}
          className="min-w-0 flex-1 rounded-lg border border-line bg-subtle px-3 py-2 font-mono text-[13px] break-all text-fg focus-visible:outline-2 focus-visible:outline-accent"
        >
          {shown?.secret}
        </code>
        <Button variant="secondary" size="sm" aria-label={S.copyLabel} onClick={() => void copy()}>
          <CopyIcon size={14} /> {S.copy}
        </Button>
      </div>
    </Modal>
  );
}
