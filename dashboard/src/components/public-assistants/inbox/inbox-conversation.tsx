/**
 * One conversation of the Inbox: its messages (the visitor's, the assistant's with sources, the
 * person's with their name and picture), the reply streaming in while watched, the visitor typing,
 * the handoff state with "Take over" / "Hand back to the assistant", the e-mail the visitor left,
 * and the person's composer once taken over. Read when opened and on each new visitor message.
 * Live over the owner's socket (`inbox` frames); read again every handoffLimits.inboxPollMs while
 * the socket is not up.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { handoffLimits, inboxUi, timeFormat, type InboxFrameData, type PublicAssistant, type VisitorMessage } from "../../../../../contract";
import { ApiError, errorMessage } from "../../../lib/api";
import { formatTime } from "../../../lib/format";
import { inboxApi } from "../../../lib/inbox-api";
import { onInboxFrame } from "../../../stores/chat-realtime";
import { MarkdownView } from "../../chat/markdown-view";
import { Button } from "../../ui/button";
import { RetryAlert } from "../../ui/alert";
import { ArrowLeftIcon, MailIcon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { AuthorAvatar, bubbleColor, MessageBubble } from "../session-detail-dialog";
import { InboxComposer } from "./inbox-composer";
import { applyFrameToConversation, liveConversation, pageOf, upsertMessage, visitorLabel, type LiveConversation } from "./inbox-model";

const L = inboxUi.conversation;

type Load = { status: "loading" } | { status: "ready"; live: LiveConversation } | { status: "missing" } | { status: "error"; message: string };

/** The failure text of an inbox action: 404 says the conversation is gone, else the server's message, else `fallback`. */
export function actionFailure(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status === 404) return L.notFound;
  return errorMessage(err, fallback);
}

export function InboxConversation({
  assistant,
  sessionId,
  socketUp,
  onClose,
  onRead,
}: {
  assistant: PublicAssistant;
  sessionId: string;
  /** The owner's socket is up: frames arrive, no polling. */
  socketUp: boolean;
  onClose: () => void;
  /** The conversation was read (its row's unread goes to 0). */
  onRead: (sessionId: string) => void;
}) {
  const assistantId = assistant._id;
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [busy, setBusy] = useState<"take" | "back" | null>(null);
  const [actionError, setActionError] = useState<{ message: string; retry: () => void } | null>(null);
  const [, setTick] = useState(0);
  const onReadRef = useRef(onRead);
  useEffect(() => {
    onReadRef.current = onRead;
  });

  const markRead = useCallback(() => {
    onReadRef.current(sessionId);
    inboxApi.read(assistantId, sessionId).catch(() => undefined);
  }, [assistantId, sessionId]);

  const fetchSession = useCallback(
    async (quiet: boolean, signal?: AbortSignal) => {
      if (!quiet) setLoad({ status: "loading" });
      try {
        const session = await inboxApi.session(assistantId, sessionId, signal);
        // A poll keeps the reply streaming on screen; the saved messages come from the server.
        setLoad((s) => ({ status: "ready", live: s.status === "ready" && quiet ? { ...s.live, session } : liveConversation(session) }));
        return true;
      } catch (err) {
        if (signal?.aborted) return false;
        if (err instanceof ApiError && err.status === 404) setLoad({ status: "missing" });
        else if (!quiet) setLoad({ status: "error", message: errorMessage(err, L.loadError) });
        return false;
      }
    },
    [assistantId, sessionId],
  );

  // Opened: read it, and mark it read.
  useEffect(() => {
    const controller = new AbortController();
    setActionError(null);
    void fetchSession(false, controller.signal).then((ok) => ok && markRead());
    return () => controller.abort();
  }, [fetchSession, markRead]);

  // Live: this conversation's frames.
  useEffect(
    () =>
      onInboxFrame((frame: InboxFrameData) => {
        if (frame.assistantId !== assistantId || frame.sessionId !== sessionId) return;
        setLoad((s) => (s.status === "ready" ? { status: "ready", live: applyFrameToConversation(s.live, frame, Date.now()) } : s));
        const role = (frame.message as { role?: unknown } | undefined)?.role;
        if (frame.kind === "message" && role === "user") markRead();
      }),
    [assistantId, sessionId, markRead],
  );

  // Without the socket: read again every few seconds (a visitor's new message then marks it read).
  useEffect(() => {
    if (socketUp) return;
    let last = -1;
    const timer = setInterval(() => {
      void fetchSession(true).then(() => {
        setLoad((s) => {
          if (s.status !== "ready") return s;
          const count = s.live.session.messages.length;
          if (last >= 0 && count > last) markRead();
          last = count;
          return s;
        });
      });
    }, handoffLimits.inboxPollMs);
    return () => clearInterval(timer);
  }, [socketUp, fetchSession, markRead]);

  // The visitor's typing indicator ends by itself.
  const typingUntil = load.status === "ready" ? load.live.visitorTypingUntil : null;
  useEffect(() => {
    if (!typingUntil) return;
    const timer = setTimeout(() => setTick((t) => t + 1), Math.max(0, typingUntil - Date.now()) + 20);
    return () => clearTimeout(timer);
  }, [typingUntil]);

  const setSession = (session: LiveConversation["session"]) => setLoad((s) => (s.status === "ready" ? { status: "ready", live: { ...s.live, session } } : s));

  const takeOver = async () => {
    setBusy("take");
    setActionError(null);
    try {
      setSession(await inboxApi.takeOver(assistantId, sessionId));
    } catch (err) {
      setActionError({ message: actionFailure(err, L.takeoverFailed), retry: () => void takeOver() });
      if (err instanceof ApiError && err.status === 409) void fetchSession(true);
    } finally {
      setBusy(null);
    }
  };

  const handBack = async () => {
    setBusy("back");
    setActionError(null);
    try {
      setSession(await inboxApi.handBack(assistantId, sessionId));
    } catch (err) {
      setActionError({ message: actionFailure(err, L.handBackFailed), retry: () => void handBack() });
      if (err instanceof ApiError && err.status === 409) void fetchSession(true);
    } finally {
      setBusy(null);
    }
  };

  const send = async (content: string) => {
    try {
      const message: VisitorMessage = await inboxApi.send(assistantId, sessionId, content);
      setLoad((s) => (s.status === "ready" ? { status: "ready", live: { ...s.live, session: upsertMessage(s.live.session, message) } } : s));
    } catch (err) {
      // Not taken over (any more): the state on screen is read again; the draft stays in the box.
      if (err instanceof ApiError && err.status === 409) void fetchSession(true);
      throw new ApiError({
        message: actionFailure(err, inboxUi.composer.sendFailed),
        status: err instanceof ApiError ? err.status : 0,
        code: err instanceof ApiError ? err.code : "NETWORK_ERROR",
        fromServer: true,
      });
    }
  };

  const typing = (on: boolean) => {
    inboxApi.typing(assistantId, sessionId, on).catch(() => undefined);
  };

  const back = (
    <div className="-ml-2 self-start lg:hidden">
      <Button variant="ghost" size="sm" onClick={onClose}>
        <ArrowLeftIcon size={15} /> {L.back}
      </Button>
    </div>
  );

  if (load.status === "loading") {
    return (
      <section aria-label={L.label} className="space-y-3">
        {back}
        <div className="flex h-40 items-center justify-center text-faint" role="status">
          <Spinner size={20} />
          <span className="sr-only">{L.label}</span>
        </div>
      </section>
    );
  }
  if (load.status === "missing" || load.status === "error") {
    return (
      <section aria-label={L.label} className="space-y-3">
        {back}
        <RetryAlert message={load.status === "missing" ? L.notFound : load.message} onRetry={() => void fetchSession(false)} />
      </section>
    );
  }

  const { session, streaming, thinking } = load.live;
  const handoff = session.handoff ?? { state: "none" as const };
  const typingNow = typingUntil !== null && typingUntil > Date.now();
  const color = bubbleColor(assistant.config.customization.primaryColor);
  const title = session.visitor ? visitorLabel({ visitor: session.visitor }) : inboxUi.anonymousVisitor;

  return (
    <section aria-label={L.label} className="flex min-w-0 flex-col gap-3">
      {back}
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-line pb-3">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-fg">{title}</h2>
          <dl className="mt-1 space-y-0.5 text-xs text-muted [overflow-wrap:anywhere]">
            {session.visitor ? (
              <div>
                <dt className="inline">{L.signedVisitor}: </dt>
                <dd className="inline">{[session.visitor.email, session.visitor.id].filter(Boolean).join(" · ")}</dd>
              </div>
            ) : null}
            {session.sessionInfo.locale ? (
              <div>
                <dt className="inline">{L.language}: </dt>
                <dd className="inline">{session.sessionInfo.locale}</dd>
              </div>
            ) : null}
            {session.sessionInfo.referrer ? (
              <div>
                <dt className="inline">{L.page}: </dt>
                <dd className="inline" title={session.sessionInfo.referrer}>
                  {pageOf(session.sessionInfo.referrer)}
                </dd>
              </div>
            ) : null}
            {session.contactEmail ? (
              <div className="flex items-center gap-1 text-fg">
                <MailIcon size={12} />
                <dt className="inline">{L.contactEmail}: </dt>
                <dd className="inline font-medium">
                  <a className="text-accent-text underline" href={`mailto:${session.contactEmail}`}>
                    {session.contactEmail}
                  </a>
                </dd>
              </div>
            ) : null}
          </dl>
        </div>
        <div className="hidden lg:block">
          <Button variant="ghost" size="sm" onClick={onClose}>
            {L.close}
          </Button>
        </div>
      </header>

      <div
        role="status"
        className={`flex flex-col gap-2 rounded-lg border px-3 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between ${
          handoff.state === "requested" ? "border-warning-line bg-warning-soft text-warning-fg" : handoff.state === "taken" ? "border-accent/40 bg-accent-soft text-fg" : "border-line bg-subtle text-muted"
        }`}
      >
        <p className="flex min-w-0 items-center gap-2">
          {handoff.state === "taken" && handoff.agent ? <AuthorAvatar author={handoff.agent} /> : null}
          <span>
            {handoff.state === "requested"
              ? handoff.requestedAt
                ? L.requestedSince(formatTime(handoff.requestedAt, timeFormat.message))
                : L.requested
              : handoff.state === "taken"
                ? L.taken(handoff.agent?.name ?? L.you)
                : L.none}
          </span>
        </p>
        {handoff.state === "taken" ? (
          <Button variant="secondary" size="sm" busy={busy === "back"} disabled={busy !== null} onClick={() => void handBack()}>
            {L.handBack}
          </Button>
        ) : (
          <Button size="sm" busy={busy === "take"} disabled={busy !== null} onClick={() => void takeOver()} title={L.takeOverHint}>
            {L.takeOver}
          </Button>
        )}
      </div>
      {actionError ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-danger-line bg-danger-soft px-3 py-2 text-sm text-danger">
          <span>{actionError.message}</span>
          <Button variant="secondary" size="sm" onClick={actionError.retry}>
            {inboxUi.retry}
          </Button>
        </div>
      ) : null}

      {session.messages.length === 0 && !streaming && !thinking ? (
        <p className="text-sm text-muted">{L.noMessages}</p>
      ) : (
        <ol className="space-y-4" aria-label={L.messagesLabel} aria-live="polite" aria-relevant="additions">
          {session.messages.map((m, i) => (
            <MessageBubble key={m.id ?? `${m.timestamp}-${i}`} message={m} color={color} markdown />
          ))}
          {streaming && !session.messages.some((m) => m.id === streaming.messageId) ? (
            <li className="flex flex-col items-start">
              <span className="mb-1 text-[11px] font-medium text-muted">{L.assistant}</span>
              <div className="max-w-[85%] rounded-2xl rounded-tl-sm border border-line bg-subtle px-3.5 py-2.5 text-sm break-words text-fg">
                <MarkdownView text={streaming.text} />
              </div>
            </li>
          ) : null}
        </ol>
      )}
      <div aria-live="polite" className="min-h-5 text-xs text-muted italic">
        {thinking && !streaming ? L.replying : typingNow ? L.typing : null}
      </div>

      {handoff.state === "taken" ? (
        <InboxComposer key={sessionId} sessionId={sessionId} onSend={send} onTyping={typing} />
      ) : (
        <p className="border-t border-line pt-3 text-sm text-muted">{L.notTaken}</p>
      )}
    </section>
  );
}

