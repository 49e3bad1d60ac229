/**
 * One message of the conversation. The user's text is shown as written (plain text, React-escaped);
 * a reply as sanitised markdown. Each has its time (HH:mm, spec section 9) and a Copy button; the
 * last reply can be regenerated (written again in place); a failed reply or a refused question
 * shows its error inline with Retry. A regenerated reply shows ‹ 1/2 › to browse its versions
 * (client-side: the choice lives in this component's state, the newest is shown after a change).
 */
import { memo, useState } from "react";
import { ASSISTANT_NAME, chatUi, publicAssistantMessages, realtimeMessages, regenerateMessages, successMessages, timeFormat } from "../../../../contract";
import { copyText } from "../../lib/clipboard";
import { formatTime } from "../../lib/format";
import { toast } from "../../stores/toast";
import { AlertIcon, ChevronLeftIcon, ChevronRightIcon, CopyIcon, FileIcon, RefreshIcon, TalaMark } from "../ui/icons";
import type { UiMessage } from "./chat-reducer";
import { MarkdownView } from "./markdown-view";
import { Tooltip } from "../ui/tooltip";

async function copyMessage(text: string) {
  try {
    await copyText(text);
    toast({ description: successMessages.contentCopied, variant: "success" });
  } catch {
    toast({ description: publicAssistantMessages.copyFailed, variant: "destructive" });
  }
}

const actionButton =
  "inline-flex size-7 items-center justify-center rounded-md text-faint transition-colors hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent";

/** ‹ 1/2 ›: which version of a regenerated reply is shown. Ends are aria-disabled (they keep focus). */
function VersionSwitcher({ shown, count, onShow }: { shown: number; count: number; onShow: (index: number) => void }) {
  const step = (to: number) => () => {
    if (to >= 0 && to < count) onShow(to);
  };
  const arrow = `${actionButton} aria-disabled:pointer-events-none aria-disabled:opacity-40`;
  return (
    <div role="group" aria-label={regenerateMessages.versionsLabel} className="inline-flex items-center">
      <button type="button" className={arrow} aria-label={regenerateMessages.previousVersion} aria-disabled={shown === 0} onClick={step(shown - 1)}>
        <ChevronLeftIcon size={14} />
      </button>
      <span className="min-w-7 text-center tabular-nums" aria-live="polite" aria-atomic="true">
        {regenerateMessages.versionOf(shown + 1, count)}
      </span>
      <button type="button" className={arrow} aria-label={regenerateMessages.nextVersion} aria-disabled={shown === count - 1} onClick={step(shown + 1)}>
        <ChevronRightIcon size={14} />
      </button>
    </div>
  );
}

function Actions({
  message,
  canRegenerate,
  onRegenerate,
  versions,
}: {
  message: UiMessage;
  canRegenerate: boolean;
  onRegenerate: () => void;
  versions?: { shown: number; count: number; onShow: (index: number) => void } | null;
}) {
  return (
    <div className={`mt-1 flex flex-wrap items-center gap-0.5 text-xs text-faint ${message.role === "user" ? "justify-end" : ""}`}>
      {versions && <VersionSwitcher {...versions} />}
      <time dateTime={new Date(message.timestamp).toISOString()} className="px-1 tabular-nums">
        {formatTime(message.timestamp, timeFormat.message)}
      </time>
      {message.status === "stopped" && <span className="px-1">· {chatUi.stopped}</span>}
      {message.content.data && (
        <Tooltip label={chatUi.copyMessage}>
          <button type="button" className={actionButton} aria-label={chatUi.copyMessage} onClick={() => void copyMessage(message.content.data)}>
            <CopyIcon size={14} />
          </button>
        </Tooltip>
      )}
      {canRegenerate && (
        <Tooltip label={chatUi.regenerate}>
          <button type="button" className={actionButton} aria-label={chatUi.regenerate} onClick={onRegenerate}>
            <RefreshIcon size={14} />
          </button>
        </Tooltip>
      )}
    </div>
  );
}

function InlineError({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="mt-2 flex flex-wrap items-start gap-x-3 gap-y-2 rounded-lg border border-danger-line bg-danger-soft px-3 py-2 text-sm text-danger">
      <AlertIcon size={16} className="mt-0.5 shrink-0" />
      <p className="min-w-0 flex-1">{text}</p>
      {onRetry && (
      <button
        type="button"
        onClick={onRetry}
        className="inline-flex h-7 items-center gap-1.5 rounded-md border border-danger-line bg-surface px-2.5 text-xs font-medium text-danger hover:bg-danger-soft"
      >
        <RefreshIcon size={13} /> {chatUi.retrySend}
      </button>
      )}
    </div>
  );
}

export interface MessageItemProps {
  message: UiMessage;
  /** The last reply of a chat that is not busy: it may be regenerated. */
  isLastReply: boolean;
  busy: boolean;
  /** False when a guest's messages for today are used up: Regenerate and Retry are not offered. */
  canRegenerate: boolean;
  onRegenerate: () => void;
  onRetrySend: (message: UiMessage) => void;
}

export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  return props.message.role === "user" ? <UserMessage {...props} /> : <AssistantMessage {...props} />;
});

function UserMessage({ message, onRegenerate, onRetrySend }: MessageItemProps) {
  return (
    <li data-message-role="user" data-status={message.sendError ? "refused" : message.clientMessageId ? "sending" : "saved"} className="flex justify-end">
      <div className="flex max-w-[85%] min-w-0 flex-col items-end sm:max-w-[75%]">
        {message.files.length > 0 && (
          <ul aria-label={chatUi.attachmentsLabel} className="mb-1.5 flex flex-wrap justify-end gap-1.5">
            {message.files.map((f, i) => (
              <li key={`${f.name}-${i}`} className="inline-flex max-w-full items-center gap-1.5 rounded-lg border border-line bg-surface px-2 py-1 text-xs text-muted">
                <FileIcon size={13} className="shrink-0" />
                <span className="truncate">{f.name}</span>
              </li>
            ))}
          </ul>
        )}
        {message.content.data && (
          <div className="rounded-2xl rounded-br-md bg-accent-soft px-4 py-2.5 text-[15px] leading-relaxed break-words whitespace-pre-wrap text-fg [overflow-wrap:anywhere]">
            {message.content.data}
          </div>
        )}
        {message.sendError ? (
          <InlineError text={message.sendError} onRetry={() => onRetrySend(message)} />
        ) : (
          <Actions message={message} canRegenerate={false} onRegenerate={onRegenerate} />
        )}
      </div>
    </li>
  );
}

function AssistantMessage({ message, isLastReply, busy, canRegenerate, onRegenerate }: MessageItemProps) {
  // The version the reader chose, for as many versions as there were then: a new version shows
  // the newest again.
  const [choice, setChoice] = useState<{ count: number; index: number } | null>(null);
  const streaming = message.status === "streaming";
  const versions = !streaming && message.versions && message.versions.length > 1 ? message.versions : null;
  const current = versions ? Math.min(message.versionIndex ?? versions.length - 1, versions.length - 1) : 0;
  const shownIndex = versions && choice && choice.count === versions.length ? choice.index : current;
  const version = versions?.[shownIndex];
  // What is shown: the chosen version, or the message as it stands.
  const view: UiMessage = version ? { ...message, content: version.content, status: version.status, error: version.error ?? null, timestamp: version.createdAt } : message;
  const isCurrent = shownIndex === current;
  const failed = view.status === "error";
  const mayRegenerate = isLastReply && !busy && canRegenerate;
  return (
    <li data-message-role="assistant" data-status={message.status} className="flex gap-3">
      <div className="mt-0.5 shrink-0" title={ASSISTANT_NAME}>
        <TalaMark size={28} />
      </div>
      <div className="min-w-0 flex-1">
        <p className="sr-only">{ASSISTANT_NAME}</p>
        {view.content.data && <MarkdownView text={view.content.data} className={`text-[15px] leading-relaxed text-fg ${streaming ? "is-streaming" : ""}`} />}
        {failed && <InlineError text={view.error || realtimeMessages.messageErrorFallback} onRetry={mayRegenerate && isCurrent ? onRegenerate : undefined} />}
        {!streaming && (
          <Actions
            message={view}
            canRegenerate={mayRegenerate && message.status !== "error"}
            onRegenerate={onRegenerate}
            versions={versions ? { shown: shownIndex, count: versions.length, onShow: (index) => setChoice({ count: versions.length, index }) } : null}
          />
        )}
      </div>
    </li>
  );
}

/** The reply is on its way and none of its text has arrived yet. */
export function ThinkingIndicator() {
  return (
    <li className="flex gap-3" data-message-role="thinking">
      <div className="mt-0.5 shrink-0">
        <TalaMark size={28} />
      </div>
      <div role="status" className="flex h-8 items-center gap-1.5 text-muted">
        <span className="sr-only">{chatUi.thinking}</span>
        {[0, 1, 2].map((i) => (
          <span key={i} aria-hidden="true" className="size-2 animate-bounce rounded-full bg-current" style={{ animationDelay: `${i * 150}ms` }} />
        ))}
      </div>
    </li>
  );
}
