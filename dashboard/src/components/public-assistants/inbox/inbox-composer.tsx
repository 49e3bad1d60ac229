/**
 * The person's reply box in a taken-over conversation: Write / Preview (the same sanitised
 * Markdown as the assistant's replies), the counter against the contract's limit, the client check
 * with the contract's body schema, and the server's refusal (400 naming the limit, 409 not taken
 * over, 5xx) shown with "Send again": nothing typed is lost. The visitor sees "typing" at most
 * every handoffLimits.typingSendMs while the owner types.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { agentMessageBody, handoffLimits, inboxUi } from "../../../../../contract";
import { errorMessage } from "../../../lib/api";
import { MarkdownView } from "../../chat/markdown-view";
import { Button } from "../../ui/button";
import { FormAlert } from "../../ui/alert";

const L = inboxUi.composer;

/** Drafts by conversation, kept while the page is open (moving to another conversation keeps them). */
const drafts = new Map<string, string>();

export function InboxComposer({
  sessionId,
  onSend,
  onTyping,
}: {
  sessionId: string;
  /** Sends the text; throws what the API threw. */
  onSend: (content: string) => Promise<void>;
  onTyping: (typing: boolean) => void;
}) {
  const id = useId();
  const [text, setText] = useState(() => drafts.get(sessionId) ?? "");
  const [mode, setMode] = useState<"write" | "preview">("write");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lastTyping = useRef(0);
  const typingOn = useRef(false);

  useEffect(() => {
    drafts.set(sessionId, text);
  }, [sessionId, text]);

  const stopTyping = () => {
    if (!typingOn.current) return;
    typingOn.current = false;
    lastTyping.current = 0;
    onTyping(false);
  };
  // Leaving the conversation ends "typing" on the visitor's side.
  const stopRef = useRef(stopTyping);
  useEffect(() => {
    stopRef.current = stopTyping;
  });
  useEffect(() => () => stopRef.current(), []);

  const change = (value: string) => {
    setText(value);
    setError(null);
    const now = Date.now();
    if (value.trim() && now - lastTyping.current >= handoffLimits.typingSendMs) {
      lastTyping.current = now;
      typingOn.current = true;
      onTyping(true);
    }
  };

  const tooLong = text.length > handoffLimits.maxMessageChars;
  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    if (sending) return;
    const checked = agentMessageBody.safeParse({ content: text });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? L.sendFailed);
      return;
    }
    setSending(true);
    setError(null);
    try {
      await onSend(text);
      setText("");
      drafts.delete(sessionId);
      setMode("write");
      stopTyping();
    } catch (err) {
      setError(errorMessage(err, L.sendFailed));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void send();
  };

  return (
    <form onSubmit={(e) => void send(e)} noValidate className="space-y-2 border-t border-line pt-3">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={`${id}-text`} className="text-sm font-medium text-fg">
          {L.label}
        </label>
        <div className="flex rounded-lg border border-line p-0.5 text-xs" role="group" aria-label={`${L.write} / ${L.preview}`}>
          {(["write", "preview"] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={`rounded-md px-2.5 py-1 font-medium focus-visible:outline-2 focus-visible:outline-accent ${mode === m ? "bg-accent-soft text-accent-text" : "text-muted hover:text-fg"}`}
            >
              {m === "write" ? L.write : L.preview}
            </button>
          ))}
        </div>
      </div>
      {mode === "write" ? (
        <textarea
          id={`${id}-text`}
          value={text}
          rows={4}
          placeholder={L.placeholder}
          onChange={(e) => change(e.target.value)}
          onBlur={stopTyping}
          onKeyDown={onKeyDown}
          aria-invalid={tooLong || error ? true : undefined}
          aria-describedby={`${id}-counter ${id}-hint`}
          className={`block w-full resize-y rounded-lg border bg-surface px-3 py-2 text-base text-fg shadow-xs placeholder:text-faint focus:border-accent focus:ring-3 focus:ring-accent/20 focus:outline-none sm:text-sm ${
            tooLong ? "border-danger" : "border-line-strong"
          }`}
        />
      ) : (
        <div id={`${id}-text`} className="min-h-24 rounded-lg border border-line bg-subtle px-3 py-2 text-sm text-fg" aria-label={L.preview}>
          {text.trim() ? <MarkdownView text={text} /> : <p className="text-muted italic">{L.previewEmpty}</p>}
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
        <span id={`${id}-hint`} className="text-muted">
          {L.hint}
        </span>
        <span id={`${id}-counter`} className={`tabular-nums ${tooLong ? "font-medium text-danger" : "text-muted"}`}>
          {L.counter(text.length, handoffLimits.maxMessageChars)}
          {tooLong ? <span className="sr-only"> {L.tooLong(handoffLimits.maxMessageChars)}</span> : null}
        </span>
      </div>
      <FormAlert message={error} />
      <div className="flex justify-end gap-2">
        <Button type="submit" size="sm" busy={sending} disabled={sending}>
          {error && text.trim() ? L.retry : L.send}
        </Button>
      </div>
    </form>
  );
}
