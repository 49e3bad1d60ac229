/**
 * The Inbox tab of an assistant's page: its conversations as they happen. Filters "Needs a person",
 * "With a person", "Live now", "All" with counts; rows (who, first question, last message, time,
 * unread, live, handoff state), latest activity first, in pages; the open conversation beside the
 * list (in place of it on a phone), named by the address (`?tab=inbox&session=`).
 *
 * Live: `inbox` frames over the owner's chat-room socket (stores/chat-realtime.ts, the tab's one
 * connection). While the Inbox is on screen it renews POST …/inbox/watch every
 * handoffLimits.watchRenewMs (with the open conversation, whose reply then streams in). Without the
 * socket (HTTP fallback, reconnecting, offline) it reads the list again every
 * handoffLimits.inboxPollMs and says so.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { handoffLimits, inboxUi, type InboxConversation, type InboxFilter, type InboxResponse, type PublicAssistant } from "../../../../../contract";
import { errorMessage } from "../../../lib/api";
import { inboxApi } from "../../../lib/inbox-api";
import { useChatStore } from "../../../stores/chat";
import { onInboxFrame } from "../../../stores/chat-realtime";
import { requestNotifications, useInboxSummary } from "../../../stores/inbox";
import { Button } from "../../ui/button";
import { RetryAlert } from "../../ui/alert";
import { ChevronLeftIcon, ChevronRightIcon, MessageIcon, RefreshIcon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { InboxConversation as ConversationView } from "./inbox-conversation";
import { applyFrameToList, markRowRead, plainPreview, rowTime, visitorLabel } from "./inbox-model";

const L = inboxUi;

type ListState = { status: "loading"; data: InboxResponse | null } | { status: "ready"; data: InboxResponse } | { status: "error"; data: InboxResponse | null; message: string };

/** The owner's socket is up (frames arrive): open, not over its HTTP fallback. */
export function useSocketUp(): boolean {
  return useChatStore((s) => s.connection.state === "open" && s.connection.transport !== "http");
}

function filterCount(filter: InboxFilter, data: InboxResponse | null, allTotal: number | null): number | null {
  if (!data) return null;
  switch (filter) {
    case "needs-person":
      return data.counts.needsPerson;
    case "with-person":
      return data.counts.withPerson;
    case "live":
      return data.counts.live;
    case "all":
      return allTotal;
  }
}

function StateChip({ state }: { state: InboxConversation["handoff"]["state"] }) {
  if (state === "none") return null;
  return (
    <span
      className={`shrink-0 rounded-full px-2 py-px text-[11px] font-medium ${state === "requested" ? "bg-warning-soft text-warning-fg ring-1 ring-warning-line" : "bg-accent-soft text-accent-text"}`}
    >
      {L.state[state]}
    </span>
  );
}

function Row({ c, selected, onSelect }: { c: InboxConversation; selected: boolean; onSelect: () => void }) {
  const by = c.previewRole ? `${L.previewBy[c.previewRole]}: ` : "";
  return (
    <li>
      <button
        type="button"
        onClick={onSelect}
        aria-current={selected ? "true" : undefined}
        className={`grid w-full min-w-0 grid-cols-[1fr_auto] items-center gap-x-3 gap-y-0.5 px-3 py-2.5 text-left transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent ${
          selected ? "bg-accent-soft" : "hover:bg-subtle"
        }`}
      >
        <span className="flex min-w-0 items-center gap-1.5">
          {c.live ? (
            <span className="relative size-2 shrink-0 rounded-full bg-success" title={L.live}>
              <span className="sr-only">{L.live}</span>
            </span>
          ) : null}
          <span className={`truncate text-sm ${c.unread > 0 ? "font-semibold text-fg" : "font-medium text-fg"}`}>{visitorLabel(c)}</span>
        </span>
        <span className="text-xs text-muted tabular-nums">
          {c.lastMessageAt ? <time dateTime={new Date(c.lastMessageAt).toISOString()}>{rowTime(c.lastMessageAt, Date.now())}</time> : null}
        </span>
        <span className={`min-w-0 truncate text-sm ${c.title ? "text-fg" : "text-muted italic"}`}>{c.title || L.noQuestion}</span>
        <span className="flex items-center justify-end gap-1.5">
          <StateChip state={c.handoff.state} />
          {c.unread > 0 ? (
            <span className="relative min-w-5 rounded-full bg-accent px-1.5 text-center text-[11px] leading-5 font-semibold text-white tabular-nums">
              {c.unread}
              <span className="sr-only"> {L.unread(c.unread)}</span>
            </span>
          ) : null}
        </span>
        <span className="col-span-2 min-w-0 truncate text-xs text-muted">
          {by}
          {plainPreview(c.preview)}
        </span>
      </button>
    </li>
  );
}

function NotificationsButton() {
  const state = useInboxSummary((s) => s.notifications);
  if (state === "unsupported" || state === "granted") return state === "granted" ? <p className="text-xs text-muted">{L.notifications.on}</p> : null;
  if (state === "denied") return <p className="text-xs text-muted">{L.notifications.denied}</p>;
  return (
    <Button variant="secondary" size="sm" onClick={() => void requestNotifications()} title={L.notifications.enableHint}>
      {L.notifications.enable}
    </Button>
  );
}

export function InboxPanel({
  assistant,
  shown,
  session,
  selectSession,
}: {
  assistant: PublicAssistant;
  /** The tab is on screen (the panel stays mounted while another tab is shown). */
  shown: boolean;
  session: string | null;
  selectSession: (sessionId: string | null) => void;
}) {
  const assistantId = assistant._id;
  const [filter, setFilter] = useState<InboxFilter>("all");
  const [page, setPage] = useState(1);
  const [list, setList] = useState<ListState>({ status: "loading", data: null });
  const [allTotal, setAllTotal] = useState<number | null>(null);
  const socketUp = useSocketUp();
  const seq = useRef(0);
  const where = useRef({ filter, page, session });
  useEffect(() => {
    where.current = { filter, page, session };
  });

  const load = useCallback(
    async (quiet: boolean) => {
      const mine = ++seq.current;
      if (!quiet) setList((s) => ({ status: "loading", data: s.data }));
      try {
        const data = await inboxApi.list(assistantId, filter, page);
        if (mine !== seq.current) return;
        const open = where.current.session;
        setList({ status: "ready", data: open ? markRowRead(data, open) : data });
        if (filter === "all") setAllTotal(data.total);
      } catch (err) {
        if (mine !== seq.current) return;
        // A poll that fails keeps the list on screen; the notice says the inbox is reconnecting.
        if (quiet) return;
        setList((s) => ({ status: "error", data: s.data, message: errorMessage(err, L.loadError) }));
      }
    },
    [assistantId, filter, page],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  // The counts could not be kept from a frame: read the list again, once for a burst of frames.
  const staleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(staleTimer.current), []);

  const listRef = useRef(list);
  useEffect(() => {
    listRef.current = list;
  });
  useEffect(
    () =>
      onInboxFrame((frame) => {
        if (frame.assistantId !== assistantId) return;
        const current = listRef.current;
        if (current.status !== "ready") return;
        const { filter: f, page: p, session: open } = where.current;
        const update = applyFrameToList(current.data, frame, f, p, open);
        if (update.data !== current.data) {
          const next: ListState = { status: "ready", data: update.data };
          listRef.current = next;
          setList(next);
        }
        if (!update.stale) return;
        if (f === "all" && frame.conversation) setAllTotal((n) => (n === null ? n : n + 1));
        clearTimeout(staleTimer.current);
        staleTimer.current = setTimeout(() => void load(true), 1000);
      }),
    [assistantId, load],
  );

  // While on screen with the socket up: tell me of every message (and stream the open conversation).
  useEffect(() => {
    if (!shown || !socketUp) return;
    const renew = () => inboxApi.watch(assistantId, session ?? undefined).catch(() => undefined);
    void renew();
    const timer = setInterval(renew, handoffLimits.watchRenewMs);
    return () => clearInterval(timer);
  }, [shown, socketUp, assistantId, session]);

  // Without the socket: read the list again every few seconds. When it comes back: once, at once.
  const wasUp = useRef(socketUp);
  useEffect(() => {
    if (socketUp && !wasUp.current) void load(true);
    wasUp.current = socketUp;
    if (!shown || socketUp) return;
    const timer = setInterval(() => void load(true), handoffLimits.inboxPollMs);
    return () => clearInterval(timer);
  }, [shown, socketUp, load]);

  const onRead = useCallback((sessionId: string) => {
    setList((s) => (s.status === "ready" ? { status: "ready", data: markRowRead(s.data, sessionId) } : s));
  }, []);

  const data = list.data;
  const chooseFilter = (f: InboxFilter) => {
    setFilter(f);
    setPage(1);
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <p className="max-w-2xl text-sm text-muted">{L.intro}</p>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <NotificationsButton />
          <Button variant="ghost" size="sm" onClick={() => void load(false)} disabled={list.status === "loading"} aria-label={L.refresh}>
            <RefreshIcon size={15} />
          </Button>
        </div>
      </div>
      {!socketUp ? (
        <p role="status" className="flex items-center gap-2 rounded-lg border border-warning-line bg-warning-soft px-3 py-2 text-sm text-warning-fg">
          <Spinner size={14} /> {L.polling}
        </p>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-[minmax(18rem,24rem)_minmax(0,1fr)]">
        <div className={`min-w-0 space-y-3 ${session ? "hidden lg:block" : ""}`}>
          <div role="group" aria-label={L.filtersLabel} className="flex flex-wrap gap-1.5">
            {handoffLimits.inboxFilters.map((f) => {
              const n = filterCount(f, data, allTotal);
              return (
                <button
                  key={f}
                  type="button"
                  aria-pressed={filter === f}
                  onClick={() => chooseFilter(f)}
                  className={`inline-flex h-8 items-center gap-1.5 rounded-full border px-3 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent ${
                    filter === f ? "border-accent bg-accent-soft text-accent-text" : "border-line-strong text-muted hover:bg-subtle hover:text-fg"
                  }`}
                >
                  {L.filters[f]}
                  {n !== null ? (
                    <span
                      className={`rounded-full px-1.5 tabular-nums ${f === "needs-person" && n > 0 ? "bg-warning-soft text-warning-fg ring-1 ring-warning-line" : "bg-subtle text-muted"}`}
                    >
                      {n}
                    </span>
                  ) : null}
                </button>
              );
            })}
          </div>

          {list.status === "error" ? <RetryAlert message={list.message} onRetry={() => void load(false)} /> : null}
          <div className="relative min-h-32" aria-busy={list.status === "loading"}>
            {list.status === "loading" && !data ? (
              <div className="flex h-32 items-center justify-center text-faint" role="status">
                <Spinner size={20} />
                <span className="sr-only">{L.listLabel}</span>
              </div>
            ) : null}
            {data && data.conversations.length === 0 && list.status !== "loading" ? (
              <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-10 text-center">
                <MessageIcon size={20} className="text-faint" />
                <p className="mt-2 max-w-sm text-sm text-muted">{L.empty[filter]}</p>
              </div>
            ) : null}
            {data && data.conversations.length > 0 ? (
              <ul aria-label={L.listLabel} className={`divide-y divide-line overflow-hidden rounded-lg border border-line bg-surface ${list.status === "loading" ? "opacity-60" : ""}`}>
                {data.conversations.map((c) => (
                  <Row key={c.sessionId} c={c} selected={c.sessionId === session} onSelect={() => selectSession(c.sessionId)} />
                ))}
              </ul>
            ) : null}
          </div>
          {data && data.totalPages > 1 ? (
            <nav aria-label={L.pagination} className="flex items-center justify-between gap-2">
              <Button variant="secondary" size="sm" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={data.page <= 1 || list.status === "loading"}>
                <ChevronLeftIcon size={15} /> {L.previous}
              </Button>
              <span className="text-sm text-muted tabular-nums">{L.pageOf(data.page, data.totalPages)}</span>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setPage((p) => Math.min(data.totalPages, p + 1))}
                disabled={data.page >= data.totalPages || list.status === "loading"}
              >
                {L.next} <ChevronRightIcon size={15} />
              </Button>
            </nav>
          ) : null}
        </div>

        <div className={`min-w-0 ${session ? "" : "hidden lg:block"}`}>
          {session ? (
            <div className="rounded-xl border border-line bg-surface p-3 sm:p-4">
              <ConversationView key={session} assistant={assistant} sessionId={session} socketUp={socketUp} onClose={() => selectSession(null)} onRead={onRead} />
            </div>
          ) : (
            <div className="flex h-full min-h-40 items-center justify-center rounded-xl border border-dashed border-line-strong px-6 text-center text-sm text-muted">
              {L.selectConversation}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
