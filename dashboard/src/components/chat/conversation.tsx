/**
 * The conversation pane of the chat screen: the messages (or a new chat's greeting, a loading or
 * missing chat), then the composer with the connection's state and the messages left today (a
 * guest's, or an account's whose e-mail is not verified), or, once they are used, the way on
 * instead: an account for a guest, verifying the e-mail for an unverified account.
 */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { chatMessages, chatUi, publicRoutes, type Project, type RemainingMessages } from "../../../../contract";
import { useChatStore, type ConnectionView } from "../../stores/chat";
import { openChat, reconnectChat, regenerateReply, retryChatMessage, sendChatMessage, stopReply } from "../../stores/chat-realtime";
import { Button } from "../ui/button";
import { AlertIcon, ChatPlusIcon, CloseIcon, FolderIcon, TalaMark } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { isPendingKey, type Attachment, type Conversation as ConversationState, type UiMessage } from "./chat-reducer";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { useMediaQuery } from "./use-media-query";

function ConnectionNote({ connection }: { connection: ConnectionView }) {
  if (connection.state === "open" || connection.state === "idle") return null;
  if (connection.state === "failed" || connection.state === "closed") {
    return (
      <span className="inline-flex items-center gap-2 text-danger">
        {chatUi.disconnected}
        <button type="button" onClick={reconnectChat} className="font-medium underline underline-offset-2 hover:no-underline">
          {chatUi.reconnect}
        </button>
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5">
      <Spinner size={11} /> {connection.state === "reconnecting" && connection.lost ? chatUi.reconnecting : chatUi.connecting}
    </span>
  );
}

/** Today's messages are used: a guest is led to an account, an unverified account to verifying its e-mail. */
function QuotaReached({ isGuest }: { isGuest: boolean }) {
  const [text, href, cta, after] = isGuest
    ? [chatUi.guestQuotaReached, publicRoutes.register, chatUi.guestQuotaCta, chatUi.guestQuotaAfterCta]
    : [chatUi.unverifiedQuotaReached, publicRoutes.verifyEmail, chatUi.unverifiedQuotaCta, chatUi.unverifiedQuotaAfterCta];
  return (
    <div className="border-t border-line bg-canvas px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
      <div role="status" className="mx-auto w-full max-w-3xl rounded-2xl border border-warning-line bg-warning-soft px-4 py-3 text-sm text-warning-fg">
        <p className="font-medium">{text}</p>
        <p className="mt-1">
          <Link href={href} className="font-semibold underline underline-offset-2 hover:no-underline">
            {cta}
          </Link>{" "}
          {after}
        </p>
      </div>
    </div>
  );
}

const remainingText = ({ remaining, scope }: Pick<RemainingMessages, "remaining" | "scope">) =>
  (scope === "network" ? chatUi.remainingOnNetwork : scope === "unverified" ? chatUi.remainingUnverified : chatUi.remainingMessages)(remaining);

/** A touch screen (no keyboard to press Enter on, as a rule): the keyboard hint is left out. */
const touchQuery = "(pointer: coarse)";

function EmptyConversation({ isGuest }: { isGuest: boolean }) {
  const touch = useMediaQuery(touchQuery);
  return (
    <div className="flex min-h-full flex-col items-center justify-center px-6 py-10 text-center">
      <TalaMark size={44} />
      <h2 className="mt-4 text-xl font-semibold tracking-tight text-fg sm:text-2xl">{chatUi.greeting}</h2>
      <p className="mt-2 max-w-md text-sm text-muted">
        {chatUi.greetingHint}
        {touch ? null : ` ${chatUi.keyboardHint}`}
      </p>
      {isGuest && <p className="mt-3 max-w-md text-xs text-faint">{chatUi.guestSessionNote}</p>}
    </div>
  );
}

function CenteredNote({ children }: { children: ReactNode }) {
  return <div className="flex min-h-0 flex-1 flex-col items-center justify-center gap-3 px-6 text-center text-sm text-muted">{children}</div>;
}

function ProjectChip({ project, onRemove }: { project: Project; onRemove?: () => void }) {
  return (
    <div className="mb-2 flex">
      <span className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-line bg-surface py-1 pr-1 pl-2.5 text-xs text-muted">
        <FolderIcon size={13} className="shrink-0" />
        <span className="sr-only">{chatUi.inProject}:</span>
        <span className="truncate font-medium text-fg">{project.name}</span>
        {onRemove && (
          <button
            type="button"
            onClick={onRemove}
            aria-label={chatUi.removeProject(project.name)}
            className="inline-flex size-5 items-center justify-center rounded-full hover:bg-subtle hover:text-fg"
          >
            <CloseIcon size={12} />
          </button>
        )}
      </span>
    </div>
  );
}


export function Conversation({
  convKey,
  composerKey = convKey,
  conversation,
  isGuest,
  unverified,
  draftProject,
  onRemoveProject,
  onNewChat,
}: {
  convKey: string;
  /**
   * Remounting the composer clears it: a new chat keeps its draft's key once the server names it,
   * so what was typed while the first message left is not lost.
   */
  composerKey?: string;
  conversation: ConversationState | undefined;
  isGuest: boolean;
  /** A signed-in account whose e-mail is not verified (as this tab knows it): it has a daily count. */
  unverified: boolean;
  draftProject: Project | undefined;
  onRemoveProject: () => void;
  onNewChat: () => void;
}) {
  const connection = useChatStore((s) => s.connection);
  const counted = useChatStore((s) => s.chat.remaining);
  // A guest's count, or an unverified account's (a verified one has none: a count this tab got
  // before the e-mail was verified is no longer shown).
  const remaining = counted && (isGuest ? counted.scope !== "unverified" : unverified && counted.scope === "unverified") ? counted : null;
  const chatId = isPendingKey(convKey) ? null : convKey;
  const busy = conversation?.streaming != null;
  const messages = conversation?.messages ?? [];
  const load = conversation?.load ?? (chatId ? "loading" : "ready");

  const onSend = (content: string, attachments: Attachment[]) => sendChatMessage(convKey, { content, attachments });
  const onStop = () => {
    if (chatId) stopReply(chatId);
  };
  const onRegenerate = () => {
    if (chatId) regenerateReply(chatId);
  };
  const onRetrySend = (message: UiMessage) => retryChatMessage(convKey, message);
  // Today's messages used: a regenerate would be refused, so it is not offered (the panel under
  // the chat says why).
  const quotaReached = remaining !== null && remaining.remaining === 0;

  let body: ReactNode;
  if (messages.length === 0 && !busy && (load === "loading" || load === "idle") && chatId) {
    body = (
      <CenteredNote>
        <Spinner size={22} className="text-accent" />
      </CenteredNote>
    );
  } else if (messages.length === 0 && !busy && (load === "missing" || load === "error")) {
    body = (
      <CenteredNote>
        <AlertIcon size={22} className="text-faint" />
        <p>{load === "missing" ? chatMessages.chatNotFound : chatUi.chatLoadFailed}</p>
        <div className="flex gap-2">
          {load === "error" && chatId && (
            <Button variant="secondary" size="sm" onClick={() => void openChat(chatId)}>
              {chatUi.retry}
            </Button>
          )}
          <Button size="sm" onClick={onNewChat}>
            <ChatPlusIcon size={15} /> {chatUi.newChat}
          </Button>
        </div>
      </CenteredNote>
    );
  } else {
    body = (
      <MessageList
        conversationKey={convKey}
        conversation={conversation}
        onRegenerate={onRegenerate}
        canRegenerate={!quotaReached}
        onRetrySend={onRetrySend}
        empty={<EmptyConversation isGuest={isGuest} />}
      />
    );
  }

  const footer = (
    <div className="flex min-h-5 flex-wrap items-center justify-between gap-x-4 gap-y-1 px-1 pt-1.5 text-xs text-faint">
      <ConnectionNote connection={connection} />
      {remaining !== null && (
        <span className="ml-auto" aria-live="polite">
          {remainingText(remaining)}
        </span>
      )}
    </div>
  );

  return (
    <>
      {body}
      {quotaReached && !busy ? (
        <QuotaReached isGuest={isGuest} />
      ) : (
        <Composer
          key={composerKey}
          draftKey={chatId ?? "new"}
          busy={busy}
          connected={connection.state === "open" || connection.state === "connecting" || connection.state === "reconnecting"}
          connecting={connection.state === "connecting" || connection.state === "reconnecting"}
          onSend={onSend}
          onStop={onStop}
          autoFocus
          aside={draftProject && messages.length === 0 ? <ProjectChip project={draftProject} onRemove={onRemoveProject} /> : null}
          footer={footer}
        />
      )}
    </>
  );
}
