/**
 * The conversation's messages, oldest first, in a scrolling column that follows the reply as it
 * streams while the reader is at the bottom, and offers a way back down when they scrolled up.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { chatUi } from "../../../../contract";
import { ArrowDownIcon } from "../ui/icons";
import { isThinking, lastReply, type Conversation, type UiMessage } from "./chat-reducer";
import { MessageItem, ThinkingIndicator } from "./message-item";

/** Closer than this to the bottom counts as "at the bottom" (follow the stream). */
const STICK_PX = 80;

export interface MessageListProps {
  /** Changes when another conversation is shown (scrolls to its end). */
  conversationKey: string;
  conversation: Conversation | undefined;
  onRegenerate: () => void;
  /** False when a guest's messages for today are used up: Regenerate and Retry are not offered. */
  canRegenerate: boolean;
  onRetrySend: (message: UiMessage) => void;
  /** Shown instead of the list when there are no messages (a new chat). */
  empty: ReactNode;
}

export function MessageList({ conversationKey, conversation, onRegenerate, canRegenerate, onRetrySend, empty }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [showJump, setShowJump] = useState(false);
  const messages = conversation?.messages ?? [];
  const thinking = isThinking(conversation);
  const busy = conversation?.streaming != null;
  const last = messages[messages.length - 1];
  // Only the chat's last saved message, when it is a reply, can be written again.
  const lastReplyId = lastReply(conversation)?.id;

  const scrollToEnd = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? "smooth" : "auto" });
  }, []);

  // Another conversation: start at its end.
  useLayoutEffect(() => {
    atBottom.current = true;
    setShowJump(false);
    scrollToEnd();
  }, [conversationKey, scrollToEnd]);

  // New text while the reader is at the bottom: keep up with it.
  const signature = `${messages.length}:${last?.id}:${last?.content.data.length}:${last?.status}:${thinking}`;
  useLayoutEffect(() => {
    if (atBottom.current) scrollToEnd();
  }, [signature, scrollToEnd]);

  // The column's height changes with the composer and the keyboard: stay at the bottom then too.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) scrollToEnd();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollToEnd]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    atBottom.current = bottom;
    setShowJump(!bottom);
  };

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scroller} onScroll={onScroll} className="h-full overflow-y-auto overscroll-contain">
        {messages.length === 0 && !thinking ? (
          empty
        ) : (
          <ul aria-label={chatUi.messagesLabel} className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 pt-6 pb-8 sm:px-6">
            {messages.map((m) => (
              <MessageItem key={m.id} message={m} isLastReply={m.id === lastReplyId} busy={busy} canRegenerate={canRegenerate} onRegenerate={onRegenerate} onRetrySend={onRetrySend} />
            ))}
            {thinking && <ThinkingIndicator />}
          </ul>
        )}
      </div>
      {showJump && (
        <button
          type="button"
          onClick={() => scrollToEnd(true)}
          aria-label={chatUi.scrollToLatest}
          className="absolute bottom-3 left-1/2 inline-flex size-9 -translate-x-1/2 items-center justify-center rounded-full border border-line-strong bg-surface text-fg shadow-md hover:bg-subtle"
        >
          <ArrowDownIcon size={18} />
        </button>
      )}
    </div>
  );
}
