/**
 * One visitor session (spec section 2): its messages (visitor and assistant styled apart, times
 * HH:mm, the sources an answer drew on), the start time and the total message count. Text is shown
 * as plain text: nothing a visitor or a model wrote reaches the DOM as HTML.
 */
import { chatHistory, publicAssistantUi, timeFormat, type VisitorMessage, type VisitorSession } from "../../../../contract";
import { formatTime } from "../../lib/format";
import { Modal } from "../ui/dialog";
import { FileIcon } from "../ui/icons";

const L = publicAssistantUi.session;
/** The spec's session id display: its first 8 characters. */
export const shortSessionId = (id: string) => id.slice(0, chatHistory.sessionIdDisplayLength);

function MessageBubble({ message }: { message: VisitorMessage }) {
  const fromVisitor = message.role === "user";
  const text = message.content.type === "text" ? message.content.data : L.nonText(message.content.type);
  return (
    <li className={`flex flex-col ${fromVisitor ? "items-end" : "items-start"}`}>
      <div className="mb-1 flex items-center gap-2 text-[11px] text-muted">
        <span className="font-medium">{fromVisitor ? L.visitor : L.assistant}</span>
        <time dateTime={new Date(message.timestamp).toISOString()}>{formatTime(message.timestamp, timeFormat.message)}</time>
      </div>
      <div
        className={`max-w-[85%] rounded-2xl px-3.5 py-2.5 text-sm break-words whitespace-pre-wrap ${
          fromVisitor ? "rounded-tr-sm bg-accent text-white" : "rounded-tl-sm border border-line bg-subtle text-fg"
        }`}
      >
        {text}
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
      {message.sources && message.sources.length > 0 && (
        <div className="mt-1.5 max-w-[85%] text-xs text-muted">
          <span className="font-medium">{L.sources}: </span>
          {message.sources.map((s, i) => (
            <span key={`${s.fileId}-${i}`} title={s.excerpt} className="mr-1 inline-flex items-center gap-1 rounded-md bg-subtle px-1.5 py-0.5 text-fg">
              <FileIcon size={11} className="shrink-0 text-faint" />
              {s.name}
            </span>
          ))}
        </div>
      )}
    </li>
  );
}

export function SessionDetailDialog({ session, onClose }: { session: VisitorSession; onClose: () => void }) {
  return (
    <Modal
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`${L.title}: ${shortSessionId(session.sessionId)}`}
      size="lg"
    >
      <dl className="mb-5 grid grid-cols-2 gap-2 text-sm">
        <div className="rounded-lg bg-subtle px-3 py-2">
          <dt className="text-xs text-muted">{L.startedAt}</dt>
          <dd className="font-medium text-fg">{formatTime(session.sessionInfo.startedAt, timeFormat.elsewhere)}</dd>
        </div>
        <div className="rounded-lg bg-subtle px-3 py-2">
          <dt className="text-xs text-muted">{L.totalMessages}</dt>
          <dd className="font-medium text-fg tabular-nums">{session.messageCount}</dd>
        </div>
      </dl>
      {session.messages.length === 0 ? (
        <p className="text-sm text-muted">{L.noMessages}</p>
      ) : (
        <ol className="space-y-4">
          {session.messages.map((m, i) => (
            <MessageBubble key={`${m.timestamp}-${i}`} message={m} />
          ))}
        </ol>
      )}
    </Modal>
  );
}
