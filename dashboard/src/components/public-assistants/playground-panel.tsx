/**
 * The Playground tab of an assistant's page: the owner chats with their assistant as a visitor
 * would (POST …/playground: the widget's retrieval, prompt and model, or the offline excerpts),
 * without counting against the visitors' limits or appearing in the history. The conversation
 * lives here only (playground.ts); each message carries its earlier turns. Answers render as the
 * widget renders them, with their sources (a web page's linked). Stop ends the answer.
 */
import { useEffect, useReducer, useRef } from "react";
import { publicAssistantUi, widgetMessages, type PublicAssistant } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { Composer } from "../chat/composer";
import { Button } from "../ui/button";
import { ChatPlusIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { asVisitorMessage, initialPlayground, playgroundHistory, playgroundReducer } from "./playground";
import { bubbleColor, MessageBubble } from "./session-detail-dialog";

const L = publicAssistantUi.page.playground;

export function PlaygroundPanel({ assistant }: { assistant: PublicAssistant }) {
  const [state, dispatch] = useReducer(playgroundReducer, initialPlayground);
  const controller = useRef<AbortController | null>(null);
  const log = useRef<HTMLOListElement>(null);
  const color = bubbleColor(assistant.config.customization.primaryColor);

  // Leaving the tab or the page stops an answer being written (nothing of it is kept anywhere).
  useEffect(() => () => controller.current?.abort(), []);

  // Follow the answer as it streams.
  const lastText = state.messages.at(-1)?.text;
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [state.messages.length, lastText]);

  const send = (content: string) => {
    if (state.busy) return false;
    const id = crypto.randomUUID();
    const history = playgroundHistory(state.messages);
    const c = new AbortController();
    controller.current = c;
    dispatch({ type: "send", id, text: content, at: Date.now() });
    publicAssistantsApi
      .playground(assistant._id, { content, clientMessageId: id, history, locale: navigator.language || "" }, {
        signal: c.signal,
        onFrame: (frame) => dispatch({ type: "frame", frame, at: Date.now() }),
      })
      .then(() => dispatch({ type: "done" }))
      .catch((err: unknown) => {
        if (c.signal.aborted) dispatch({ type: "done", stopped: true });
        else dispatch({ type: "failed", id, error: errorMessage(err, widgetMessages.replyFailed) });
      });
    return true;
  };

  const stop = () => controller.current?.abort();
  const clear = () => {
    controller.current?.abort();
    dispatch({ type: "clear" });
  };

  return (
    <section className="overflow-hidden rounded-xl border border-line bg-surface">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-4 py-3 sm:px-5">
        <p className="max-w-2xl text-sm text-muted">{L.description}</p>
        <Button variant="secondary" size="sm" onClick={clear} disabled={!state.messages.length}>
          <ChatPlusIcon size={15} /> {L.newConversation}
        </Button>
      </div>
      <ol ref={log} role="log" aria-label={L.conversationLabel} aria-live="polite" className="h-[min(28rem,55dvh)] space-y-4 overflow-y-auto px-4 py-5 sm:px-5">
        {state.messages.length === 0 && (
          <li className="flex h-full items-center justify-center text-center text-sm text-muted">
            <p className="max-w-sm">{L.empty}</p>
          </li>
        )}
        {state.messages.map((m) => (
          <MessageBubble
            key={m.id}
            message={asVisitorMessage(m)}
            color={color}
            visitorLabel={L.you}
            markdown
            note={
              m.status === "error" && m.error ? (
                <p role="alert" className="mt-1 max-w-[85%] text-xs font-medium text-danger">
                  {m.error}
                </p>
              ) : null
            }
          >
            {m.status === "streaming" && !m.text && <Spinner size={14} className="text-faint" />}
          </MessageBubble>
        ))}
      </ol>
      <Composer
        busy={state.busy}
        connected
        onSend={(content) => send(content.trim())}
        onStop={stop}
        placeholder={publicAssistantUi.code.searchPlaceholder}
        attachments={false}
        footer={state.remaining ? <p className="mt-1.5 text-center text-xs text-faint">{L.left(state.remaining.remaining)}</p> : undefined}
      />
    </section>
  );
}
