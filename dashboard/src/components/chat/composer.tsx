/**
 * The message composer, keyboard first: Enter sends, Shift+Enter starts a new line (and Enter while
 * an input method is composing does neither), the field grows with its text. Files of the
 * knowledge-file types can be attached (text formats are read here, PDF, Word and Excel by the
 * server; see attachments.ts); each shows as a "Reading…" chip until its text is in. While a
 * reply is written the send button becomes Stop. While the connection is coming up the button says
 * "Connecting…" and a message sent meanwhile waits for it; once the connection failed the button
 * looks disabled and a send says 'No active connection' (spec section 5).
 */
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { acceptedExtensions, ASSISTANT_NAME, chatUi } from "../../../../contract";
import { authorizationHeader } from "../../lib/api";
import { draftStorageKey, readItem, removeItem, writeItem } from "../../lib/storage";
import { authStore } from "../../stores/auth";
import { toast } from "../../stores/toast";
import { ArrowUpIcon, CloseIcon, FileIcon, PaperclipIcon, StopIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { readAttachment, selectAttachments, selectionToast, type ReadDeps } from "./attachments";
import type { Attachment } from "./chat-reducer";
import { Tooltip } from "../ui/tooltip";

const MAX_HEIGHT_PX = 200;

/** The browser's fetch and the current credential: a signed-in user's header, else the guest's id. */
const readDeps: ReadDeps = {
  fetch: (input, init) => globalThis.fetch(input, init),
  authorization: () => (authStore.getState().status === "authenticated" ? authorizationHeader() : null),
  guestSessionId: () => {
    const auth = authStore.getState();
    return auth.status === "guest" ? (auth.guestSessionId ?? null) : null;
  },
};

let nextPendingId = 0;

export interface ComposerProps {
  /** A reply is being written in this conversation (the button stops it). */
  busy: boolean;
  /** False once the connection failed: a send is refused. */
  connected: boolean;
  /** The connection is coming up: Send says so (a message sent meanwhile waits for it). */
  connecting?: boolean;
  /** Sends; resolves true when the message left (the field is then cleared). */
  onSend: (content: string, attachments: Attachment[]) => boolean;
  onStop: () => void;
  /** Above the field: the project a new chat starts in. */
  aside?: ReactNode;
  /** Below the field: connection state, messages left. */
  footer?: ReactNode;
  autoFocus?: boolean;
  /**
   * Where the unsent text is kept in this tab (the chat's id, "new" for a new chat): it survives a
   * reload and a detour through sign-in after the session ended.
   */
  draftKey?: string;
  /** The field's placeholder; default: the chat's. */
  placeholder?: string;
  /** Whether files can be attached (the owner's Playground sends text only). */
  attachments?: boolean;
}

export function Composer({ busy, connected, connecting = false, onSend, onStop, aside, footer, autoFocus = false, draftKey, placeholder, attachments: canAttach = true }: ComposerProps) {
  const [text, setText] = useState(() => (draftKey ? (readItem("session", draftStorageKey(draftKey)) ?? "") : ""));
  const savedUnder = useRef<string | undefined>(draftKey);

  // Keep the unsent text; a new chat's draft moves to the chat's id once the server names it.
  useEffect(() => {
    if (savedUnder.current && savedUnder.current !== draftKey) removeItem("session", draftStorageKey(savedUnder.current));
    savedUnder.current = draftKey;
    if (!draftKey) return;
    if (text) writeItem("session", draftStorageKey(draftKey), text);
    else removeItem("session", draftStorageKey(draftKey));
  }, [text, draftKey]);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  /** Files whose text is being read (in the browser or by the server), shown as "Reading…" chips. */
  const [pending, setPending] = useState<{ id: number; name: string }[]>([]);
  const reading = pending.length;
  const field = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  // Grow with the text, up to a limit (then it scrolls).
  useEffect(() => {
    const el = field.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  useEffect(() => {
    if (autoFocus && window.matchMedia?.("(hover: hover)").matches) field.current?.focus();
  }, [autoFocus]);

  const canSend = (text.trim().length > 0 || attachments.length > 0) && reading === 0 && !busy;

  const submit = () => {
    if (busy || reading > 0) return;
    if (!text.trim() && attachments.length === 0) return;
    if (onSend(text, attachments)) {
      setText("");
      setAttachments([]);
    }
    field.current?.focus();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) onStop();
    else submit();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing || e.keyCode === 229) return;
    e.preventDefault();
    submit();
  };

  const onFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = "";
    const selection = selectAttachments(attachments.length, files);
    const shown = selectionToast(selection);
    if (shown) toast({ ...shown, variant: "destructive" });
    if (!selection.accepted.length) return;
    const queued = selection.accepted.map((file) => ({ file, id: nextPendingId++ }));
    setPending((current) => [...current, ...queued.map(({ file, id }) => ({ id, name: file.name }))]);
    await Promise.all(
      queued.map(async ({ file, id }) => {
        const result = await readAttachment(file, readDeps);
        if (result.ok) setAttachments((current) => [...current, result.attachment]);
        else toast({ ...result.toast, variant: "destructive" });
        setPending((current) => current.filter((p) => p.id !== id));
      }),
    );
    field.current?.focus();
  };

  const sendLooksDisabled = !busy && (!canSend || !connected);

  return (
    <div className="border-t border-line bg-canvas px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
      <form onSubmit={onSubmit} className="mx-auto w-full max-w-3xl">
        {aside}
        <div className="rounded-2xl border border-line-strong bg-surface shadow-xs transition-colors focus-within:border-accent focus-within:ring-3 focus-within:ring-accent/15">
          {(attachments.length > 0 || reading > 0) && (
            <ul aria-label={chatUi.attachmentsLabel} className="flex flex-wrap gap-1.5 px-3 pt-3">
              {attachments.map((a, i) => (
                <li key={`${a.name}-${i}`} className="inline-flex max-w-full items-center gap-1.5 rounded-lg border border-line bg-subtle py-1 pr-1 pl-2 text-xs text-fg">
                  <FileIcon size={13} className="shrink-0 text-muted" />
                  <span className="max-w-48 truncate">{a.name}</span>
                  <button
                    type="button"
                    aria-label={chatUi.removeAttachment(a.name)}
                    onClick={() => setAttachments((current) => current.filter((_, j) => j !== i))}
                    className="inline-flex size-5 items-center justify-center rounded text-muted hover:bg-line hover:text-fg"
                  >
                    <CloseIcon size={12} />
                  </button>
                </li>
              ))}
              {pending.map((p) => (
                <li
                  key={`pending-${p.id}`}
                  aria-busy="true"
                  className="inline-flex max-w-full items-center gap-1.5 rounded-lg border border-dashed border-line bg-subtle px-2 py-1 text-xs text-muted"
                >
                  <Spinner size={12} />
                  <span className="max-w-48 truncate text-fg">{p.name}</span>
                  <span>{chatUi.readingAttachment}</span>
                </li>
              ))}
            </ul>
          )}
          <label htmlFor="chat-composer" className="sr-only">
            {chatUi.composerLabel}
          </label>
          <textarea
            id="chat-composer"
            ref={field}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            rows={1}
            placeholder={placeholder ?? chatUi.composerPlaceholder(ASSISTANT_NAME)}
            enterKeyHint="send"
            className="block max-h-[200px] w-full resize-none bg-transparent px-4 pt-3 pb-1 text-[15px] leading-6 text-fg placeholder:text-faint focus:outline-none"
          />
          <div className="flex items-center justify-between gap-2 px-2 pb-2">
            {canAttach ? (
              <>
                <input
                  ref={picker}
                  type="file"
                  multiple
                  accept={acceptedExtensions.join(",")}
                  className="sr-only"
                  tabIndex={-1}
                  aria-hidden="true"
                  onChange={(e) => void onFiles(e)}
                />
                <Tooltip label={chatUi.attach}>
                  <button
                    type="button"
                    onClick={() => picker.current?.click()}
                    aria-label={chatUi.attach}
                    className="inline-flex size-9 items-center justify-center rounded-full text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
                  >
                    <PaperclipIcon size={18} />
                  </button>
                </Tooltip>
              </>
            ) : (
              <span aria-hidden="true" />
            )}
            {busy ? (
              <Tooltip label={chatUi.stop}>
                <button
                  type="submit"
                  aria-label={chatUi.stop}
                  className="inline-flex size-9 items-center justify-center rounded-full bg-fg text-canvas hover:opacity-85 focus-visible:outline-2 focus-visible:outline-accent"
                >
                  <StopIcon size={16} />
                </button>
              </Tooltip>
            ) : (
              <Tooltip label={connecting ? chatUi.connecting : chatUi.send}>
                <button
                  type="submit"
                  aria-label={chatUi.send}
                  aria-busy={connecting || undefined}
                  aria-disabled={sendLooksDisabled || undefined}
                  className={`inline-flex size-9 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-accent ${
                    sendLooksDisabled ? "bg-line text-faint" : "bg-accent text-white hover:bg-accent-hover"
                  }`}
                >
                  {connecting ? <Spinner size={16} /> : <ArrowUpIcon size={18} />}
                </button>
              </Tooltip>
            )}
          </div>
        </div>
        {footer}
      </form>
    </div>
  );
}
