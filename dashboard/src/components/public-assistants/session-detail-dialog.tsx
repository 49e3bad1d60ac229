/**
 * One visitor session (spec section 2): its messages (visitor and assistant styled apart, times
 * HH:mm, the sources an answer drew on), the start time, the total message count and, for a signed-in visitor, who. Text is shown
 * as plain text: nothing a visitor or a model wrote reaches the DOM as HTML.
 */
import { useState, type ReactNode } from "react";
import { chatHistory, inboxUi, insightsUi, publicAssistantDefaults, publicAssistantUi, qaUi, timeFormat, visitorIdentityUi, type VisitorMessage, type VisitorSession } from "../../../../contract";
import { readableTextColor, safeColor } from "../../../../widget-sdk/src/core/color";
import { formatTime } from "../../lib/format";
import { Modal } from "../ui/dialog";
import { MarkdownView } from "../chat/markdown-view";
import { ExternalLinkIcon, FileIcon, MessageIcon, PencilIcon } from "../ui/icons";
import { questionBefore } from "./qa-draft";
import { useQaEditor } from "./qa-editor";
import { sourceHref } from "./source-link";
import { useCan } from "../../stores/workspace";

const L = publicAssistantUi.session;
/** The spec's session id display: its first 8 characters. */
export const shortSessionId = (id: string) => id.slice(0, chatHistory.sessionIdDisplayLength);

/** The visitor's first question in a session, on one line ("" when they asked nothing). */
export const firstQuestion = (s: Pick<VisitorSession, "messages">) =>
  s.messages.find((m) => m.role === "user" && m.content.type === "text")?.content.data.replace(/\s+/g, " ").trim() ?? "";

/** Characters of the first question a conversation's title shows (the whole question is the first bubble). */
const TITLE_CHARS = 90;

/** A conversation's title: the visitor's first question (cut at a word, "…"), else "Conversation". */
export function conversationTitle(s: Pick<VisitorSession, "messages">): string {
  const question = firstQuestion(s);
  if (!question) return L.title;
  if (question.length <= TITLE_CHARS) return question;
  const head = question.slice(0, TITLE_CHARS - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > TITLE_CHARS / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

type Source = NonNullable<VisitorMessage["sources"]>[number];
type Author = NonNullable<VisitorMessage["author"]>;

/** A person's picture: their photo when they have one, else their initials. */
export function AuthorAvatar({ author, size = 20 }: { author: Author; size?: number }) {
  const style = { width: size, height: size };
  if (author.photoUrl && /^https?:\/\//i.test(author.photoUrl)) {
    return <img src={author.photoUrl} alt="" style={style} referrerPolicy="no-referrer" className="shrink-0 rounded-full object-cover ring-1 ring-line" />;
  }
  return (
    <span aria-hidden="true" style={style} className="inline-flex shrink-0 items-center justify-center rounded-full bg-accent text-[9px] font-semibold text-white">
      {author.initials.slice(0, 3)}
    </span>
  );
}

/**
 * A source as a chip; a click shows the passage the answer drew on, below the chips. A web page
 * (a source with an http(s) `url`) also gets a link to it, opened in a new tab.
 */
export function SourceChips({ sources }: { sources: Source[] }) {
  const [open, setOpen] = useState<number | null>(null);
  const shown = open === null ? null : sources[open];
  return (
    <div className="mt-1.5 max-w-[85%] text-xs text-muted">
      <span className="font-medium">{L.sources}: </span>
      {sources.map((s, i) => {
        const href = sourceHref(s.url);
        return (
          <span key={`${s.fileId}-${i}`} className="mr-1 mb-1 inline-flex max-w-full items-center gap-0.5">
            <button
              type="button"
              aria-expanded={open === i}
              aria-label={L.showPassage(s.name)}
              onClick={() => setOpen(open === i ? null : i)}
              className={`inline-flex max-w-full items-center gap-1 rounded-full border px-2 py-0.5 text-fg focus-visible:outline-2 focus-visible:outline-accent ${
                open === i ? "border-accent bg-accent-soft" : "border-line bg-surface hover:bg-subtle"
              }`}
            >
              {s.kind === "qa" ? <MessageIcon size={11} className="shrink-0 text-faint" /> : <FileIcon size={11} className="shrink-0 text-faint" />}
              <span className="truncate">{s.name}</span>
            </button>
            {href && (
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                aria-label={publicAssistantUi.page.openLabel(s.name)}
                className="inline-flex size-6 shrink-0 items-center justify-center rounded-full text-accent-text hover:bg-subtle focus-visible:outline-2 focus-visible:outline-accent"
              >
                <ExternalLinkIcon size={12} />
              </a>
            )}
          </span>
        );
      })}
      {shown && (
        <blockquote className="mt-1 rounded-lg border-l-2 border-accent bg-subtle px-3 py-2 whitespace-pre-wrap text-fg">
          {shown.excerpt || L.noPassage}
        </blockquote>
      )}
    </div>
  );
}

/**
 * One message of a conversation: who and when, the text, attachments, sources. The history shows a
 * visitor's words as plain text; the Playground renders answers as the widget does (`markdown`),
 * names the owner (`visitorLabel`) and adds what a message in progress needs (`children`, `note`).
 */
export function MessageBubble({
  message,
  color,
  visitorLabel = L.visitor,
  markdown = false,
  children,
  note,
}: {
  message: VisitorMessage;
  color: { background: string; color: string };
  visitorLabel?: string;
  markdown?: boolean;
  /** Inside the bubble, after the text. */
  children?: ReactNode;
  /** Under the bubble (what went wrong). */
  note?: ReactNode;
}) {
  const fromVisitor = message.role === "user";
  const author = message.role === "agent" ? (message.author ?? { name: inboxUi.conversation.you, initials: "" }) : null;
  const text = message.content.type === "text" ? message.content.data : L.nonText(message.content.type);
  return (
    <li className={`flex flex-col ${fromVisitor ? "items-end" : "items-start"}`}>
      <div className="mb-1 flex items-center gap-2 text-[11px] text-muted">
        {author?.initials ? <AuthorAvatar author={author} size={18} /> : null}
        <span className="font-medium">{fromVisitor ? visitorLabel : author ? inboxUi.agentLabel(author.name) : L.assistant}</span>
        <time dateTime={new Date(message.timestamp).toISOString()}>{formatTime(message.timestamp, timeFormat.message)}</time>
        {message.rating ? (
          <span className={`rounded-full px-1.5 py-px font-medium ${message.rating === "up" ? "bg-success-soft text-success" : "bg-danger-soft text-danger"}`}>
            {message.rating === "up" ? insightsUi.helpful : insightsUi.notHelpful}
          </span>
        ) : null}
      </div>
      <div
        className={`max-w-[85%] rounded-2xl px-3.5 py-2.5 text-sm break-words ${markdown && !fromVisitor ? "" : "whitespace-pre-wrap"} ${
          fromVisitor ? "rounded-tr-sm" : author ? "rounded-tl-sm border border-accent/40 bg-accent-soft text-fg" : "rounded-tl-sm border border-line bg-subtle text-fg"
        }`}
        style={fromVisitor ? color : undefined}
      >
        {markdown && !fromVisitor ? <MarkdownView text={text} /> : text}
        {children}
        {message.files.length > 0 && (
          <ul aria-label={L.attachments} className={`mt-2 space-y-1 border-t pt-2 text-xs ${fromVisitor ? "border-white/30" : "border-line"}`}>
            {message.files.map((f, i) => (
              <li key={`${f.name}-${i}`} className="flex items-center gap-1.5">
                <FileIcon size={12} className="shrink-0" />
                <span className="truncate">{f.name}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {note}
      {message.sources && message.sources.length > 0 && <SourceChips sources={message.sources} />}
    </li>
  );
}

/** The visitor's bubbles in the assistant's own colour, as the widget shows them. */
export function bubbleColor(primaryColor: string | undefined) {
  const background = safeColor(primaryColor, publicAssistantDefaults.config.customization.primaryColor);
  return { background, color: readableTextColor(background) };
}

/**
 * `assistantId` offers "Improve this answer" under each reply: the editor opens with the visitor's
 * question and the reply, and saving makes a curated answer.
 */
export function SessionDetailDialog({
  session,
  primaryColor,
  assistantId,
  onClose,
  actions,
}: {
  session: VisitorSession;
  primaryColor?: string;
  assistantId?: string;
  onClose: () => void;
  /** More under the messages (History's privacy actions). */
  actions?: ReactNode;
}) {
  const color = bubbleColor(primaryColor);
  const editor = useQaEditor(assistantId ?? "");
  const canImprove = useCan("qa.manage");
  const improve = (index: number) => {
    const reply = session.messages[index]!;
    editor.open({ title: qaUi.improve, prefill: { question: questionBefore(session.messages, index), answer: reply.content.type === "text" ? reply.content.data : "" } });
  };
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={conversationTitle(session)}
      size="lg"
    >
      <dl className="mb-5 grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
        <div className="rounded-lg bg-subtle px-3 py-2">
          <dt className="text-xs text-muted">{L.startedAt}</dt>
          <dd className="font-medium text-fg">{formatTime(session.sessionInfo.startedAt, timeFormat.elsewhere)}</dd>
        </div>
        <div className="rounded-lg bg-subtle px-3 py-2">
          <dt className="text-xs text-muted">{L.totalMessages}</dt>
          <dd className="font-medium text-fg tabular-nums">{session.messageCount}</dd>
        </div>
        <div className="col-span-2 rounded-lg bg-subtle px-3 py-2 sm:col-span-1">
          <dt className="text-xs text-muted">{L.conversationId}</dt>
          <dd className="font-mono text-fg" title={session.sessionId}>
            {shortSessionId(session.sessionId)}
          </dd>
        </div>
        {session.visitor && (
          <div className="col-span-2 rounded-lg bg-subtle px-3 py-2 sm:col-span-3">
            <dt className="text-xs text-muted">{visitorIdentityUi.detailVisitor}</dt>
            <dd className="space-y-0.5 text-fg [overflow-wrap:anywhere]">
              {session.visitor.name && (
                <span className="block font-medium">
                  <span className="sr-only">{visitorIdentityUi.detailName}: </span>
                  {session.visitor.name}
                </span>
              )}
              {session.visitor.email && (
                <span className="block text-xs">
                  <span className="sr-only">{visitorIdentityUi.detailEmail}: </span>
                  {session.visitor.email}
                </span>
              )}
              <span className="block font-mono text-xs text-muted">
                {visitorIdentityUi.detailId}: {session.visitor.id}
              </span>
            </dd>
          </div>
        )}
      </dl>
      {session.messages.length === 0 ? (
        <p className="text-sm text-muted">{L.noMessages}</p>
      ) : (
        <ol className="space-y-4">
          {session.messages.map((m, i) => (
            <MessageBubble
              key={`${m.timestamp}-${i}`}
              message={m}
              color={color}
              note={
                assistantId && canImprove && m.role === "assistant" ? (
                  <button
                    type="button"
                    onClick={() => improve(i)}
                    className="mt-1 inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-accent-text hover:bg-accent-soft focus-visible:outline-2 focus-visible:outline-accent"
                  >
                    <PencilIcon size={12} />
                    {qaUi.improve}
                  </button>
                ) : undefined
              }
            />
          ))}
        </ol>
      )}
      {actions}
      {editor.element}
    </Modal>
  );
}
