/**
 * The card's API key (spec section 2): a read-only field that selects itself on click, a copy button
 * and a reveal button. The list carries the masked key; reveal fetches the full key once per
 * assistant (cached in the store), copy fetches it first when it is not cached yet.
 */
import { useId, useState } from "react";
import { publicAssistantMessages, publicAssistantUi, successMessages, type PublicAssistant } from "../../../../contract";
import { copyText } from "../../lib/clipboard";
import { failureToast, usePublicAssistants } from "../../stores/public-assistants";
import { toast } from "../../stores/toast";
import { CopyIcon, EyeIcon, EyeOffIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { Tooltip } from "../ui/tooltip";

const L = publicAssistantUi.card;

const iconButton =
  "inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-line-strong bg-surface text-muted shadow-xs transition-colors hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-60";

export function ApiKeyField({ assistant }: { assistant: PublicAssistant }) {
  const id = useId();
  const fullKey = usePublicAssistants((s) => s.fullKeys[assistant._id]);
  const getFullKey = usePublicAssistants((s) => s.fullKey);
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState<"reveal" | "copy" | null>(null);
  const shown = revealed && fullKey ? fullKey : assistant.apiKey;

  const reveal = async () => {
    if (revealed) return setRevealed(false);
    setBusy("reveal");
    try {
      await getFullKey(assistant._id);
      setRevealed(true);
    } catch (err) {
      failureToast(err, publicAssistantMessages.rawKeyFailed);
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    setBusy("copy");
    let key: string;
    try {
      key = await getFullKey(assistant._id);
    } catch (err) {
      setBusy(null);
      return failureToast(err, publicAssistantMessages.rawKeyFailed);
    }
    try {
      await copyText(key);
      toast({ variant: "success", title: successMessages.keyCopiedTitle, description: successMessages.keyCopied });
    } catch {
      toast({ variant: "destructive", title: publicAssistantMessages.copyKeyFailed });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-xs font-medium text-muted">
        {L.apiKey}
      </label>
      <div className="flex gap-1.5">
        <input
          id={id}
          readOnly
          value={shown}
          spellCheck={false}
          onClick={(e) => e.currentTarget.select()}
          onFocus={(e) => e.currentTarget.select()}
          className="h-9 min-w-0 flex-1 rounded-lg border border-line-strong bg-subtle px-3 font-mono text-xs text-fg focus:border-accent focus:ring-3 focus:ring-accent/20 focus:outline-none"
        />
        <Tooltip label={L.copyKey}>
          <button type="button" className={iconButton} aria-label={L.copyKey} onClick={() => void copy()} disabled={busy !== null}>
            {busy === "copy" ? <Spinner size={14} /> : <CopyIcon size={16} />}
          </button>
        </Tooltip>
        <Tooltip label={revealed ? L.hideKey : L.revealKey}>
          <button
            type="button"
            className={iconButton}
            aria-label={revealed ? L.hideKey : L.revealKey}
            aria-pressed={revealed}
            onClick={() => void reveal()}
            disabled={busy !== null}
          >
            {busy === "reveal" ? <Spinner size={14} /> : revealed ? <EyeOffIcon size={16} /> : <EyeIcon size={16} />}
          </button>
        </Tooltip>
      </div>
    </div>
  );
}
