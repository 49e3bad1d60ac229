/**
 * Chat History of an assistant (spec sections 2 and 4), shared by the View History dialog and the
 * assistant page's History tab: the visitor sessions, ten a page, with Refresh and Export
 * (chat-history-{id}.json); 'Page x of y' only when there is more than one page. Each row and
 * its conversation are titled by the visitor's first question. (The spec's Debug button, a count
 * of database rows, is no owner's concern: its route stays for API clients, the page shows none.)
 * Selecting a session opens its detail. The selection is the caller's (`selectedId`): the dialog
 * keeps it in state, the page in its URL (?session=), so a conversation opens by id, fetched
 * (GET …/chats/{sessionId}) when it is not on the page shown. A signed-in visitor's
 * rows say who (name, e-mail, the site's user id), and the list can be filtered to one signed-in
 * visitor (their user id typed, or a row's Filter button), GET …/chats?user=.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  appMessages,
  publicAssistantMessages as M,
  publicAssistantUi,
  successMessages,
  timeFormat,
  visitorIdentity,
  visitorIdentityUi as V,
  type ChatHistoryResponse,
  type VerifiedVisitor,
  type PublicAssistant,
  type VisitorSession,
} from "../../../../contract";
import { ApiError } from "../../lib/api";
import { saveBlob } from "../../lib/clipboard";
import { formatTime } from "../../lib/format";
import { exportFileName, publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { inputClasses } from "../ui/field";
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, MessageIcon, RefreshIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { historyFailureText } from "./failure-text";
import { ConversationPrivacyActions } from "./privacy-actions";
import { SessionDetailDialog, firstQuestion, shortSessionId } from "./session-detail-dialog";

const L = publicAssistantUi.history;

/** How a signed-in visitor is named in a row: name, else e-mail, else their id. */
export const visitorName = (v: VerifiedVisitor) => v.name || v.email || v.id;

/**
 * The selected session: from the page on screen when it is there, else fetched by id. A session
 * that does not exist (or a failed fetch) says so and clears the selection.
 */
function useSelectedSession(assistantId: string, selectedId: string | null, onPage: VisitorSession | undefined, onSelect: (id: string | null) => void) {
  const [fetched, setFetched] = useState<VisitorSession | null>(null);
  // The caller's callback may change identity on every render: the fetch must not restart for that.
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });
  const needsFetch = selectedId !== null && !onPage && fetched?.sessionId !== selectedId;
  useEffect(() => {
    if (!needsFetch || selectedId === null) return;
    const controller = new AbortController();
    publicAssistantsApi
      .chatSession(assistantId, selectedId, controller.signal)
      .then(setFetched)
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) toast({ variant: "destructive", title: publicAssistantUi.page.sessionNotFound });
        else toast({ variant: "destructive", title: M.historyErrorTitle, description: historyFailureText(err) });
        select.current(null);
      });
    return () => controller.abort();
  }, [assistantId, selectedId, needsFetch]);
  if (selectedId === null) return null;
  return onPage ?? (fetched?.sessionId === selectedId ? fetched : null);
}

/** The page a conversation started on, without its query and fragment (they can be long, or carry a site's tokens); the whole address is the title. */
function pageOf(referrer: string): string {
  try {
    const url = new URL(referrer);
    return url.origin + url.pathname;
  } catch {
    return referrer;
  }
}

export function ChatHistoryPanel({
  assistant,
  selectedId,
  onSelect,
}: {
  assistant: PublicAssistant;
  /** The visitor session whose detail is open (its id), or null. */
  selectedId: string | null;
  onSelect: (sessionId: string | null) => void;
}) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<ChatHistoryResponse | null>(null);
  const [loading, setLoading] = useState(true);
  const [reloadKey, setReloadKey] = useState(0);
  const [busy, setBusy] = useState<"export" | null>(null);
  // Only one signed-in visitor's conversations (their id, the token's sub).
  const [user, setUser] = useState("");
  const [userInput, setUserInput] = useState("");
  const filterId = useId();
  const filterBy = (sub: string) => {
    setUserInput(sub);
    setUser(sub);
    setPage(1);
  };
  const applyFilter = (e: FormEvent) => {
    e.preventDefault();
    filterBy(userInput.trim());
  };
  const selected = useSelectedSession(
    assistant._id,
    selectedId,
    data?.sessions.find((s) => s.sessionId === selectedId),
    onSelect,
  );

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    publicAssistantsApi
      .chats(assistant._id, page, controller.signal, user || undefined)
      .then((res) => {
        setData(res);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        toast({ variant: "destructive", title: M.historyErrorTitle, description: historyFailureText(err) });
      });
    return () => controller.abort();
  }, [assistant._id, page, reloadKey, user]);

  const refresh = useCallback(() => setReloadKey((k) => k + 1), []);

  const exportHistory = async () => {
    setBusy("export");
    try {
      saveBlob(await publicAssistantsApi.exportChats(assistant._id), exportFileName(assistant._id));
      toast({ variant: "success", description: successMessages.historyExported });
    } catch {
      toast({ variant: "destructive", title: M.exportFailed });
    } finally {
      setBusy(null);
    }
  };

  const totalPages = data?.totalPages ?? 0;
  const current = data?.currentPage ?? page;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" onClick={refresh} disabled={loading}>
          <RefreshIcon size={15} /> {L.refresh}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => void exportHistory()} busy={busy === "export"} disabled={busy !== null}>
          <DownloadIcon size={15} /> {L.export}
        </Button>
        {data ? <span className="ml-auto text-xs text-muted tabular-nums">{L.sessionCount(data.total)}</span> : null}
      </div>

      <form role="search" onSubmit={applyFilter} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1.5">
          <label htmlFor={filterId} className="block text-sm font-medium text-fg">
            {V.filterLabel}
          </label>
          <p id={`${filterId}-hint`} className="text-xs text-muted">
            {V.filterHint}
          </p>
          <input
            id={filterId}
            aria-describedby={`${filterId}-hint`}
            name="user"
            value={userInput}
            onChange={(e) => setUserInput(e.target.value)}
            placeholder={V.filterPlaceholder}
            maxLength={visitorIdentity.maxSubChars}
            autoComplete="off"
            className={`${inputClasses} border-line-strong text-base sm:text-sm`}
          />
        </div>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary" size="sm" className="h-10">
            {V.filterApply}
          </Button>
          {user && (
            <Button type="button" variant="ghost" size="sm" className="h-10" onClick={() => filterBy("")}>
              {V.filterClear}
            </Button>
          )}
        </div>
      </form>
      {user && (
        <p className="text-xs text-muted [overflow-wrap:anywhere]" aria-live="polite">
          {V.filterActive(user)}
        </p>
      )}

      <div className="relative min-h-32" aria-busy={loading}>
        {loading && !data && (
          <div className="flex h-32 items-center justify-center text-faint" role="status">
            <Spinner size={20} />
            <span className="sr-only">{appMessages.loading}</span>
          </div>
        )}
        {data && data.sessions.length === 0 && !loading && (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-10 text-center">
            <MessageIcon size={20} className="text-faint" />
            <p className="mt-2 max-w-sm text-sm text-muted">{L.empty}</p>
          </div>
        )}
        {data && data.sessions.length > 0 && (
          <ul aria-label={L.sessionsLabel} className={`divide-y divide-line rounded-lg border border-line ${loading ? "opacity-60" : ""}`}>
            {data.sessions.map((s) => (
              <li key={s._id} className="flex flex-col sm:flex-row sm:items-stretch">
                <button
                  type="button"
                  onClick={() => onSelect(s.sessionId)}
                  className="grid min-w-0 flex-1 grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-3 text-left transition-colors hover:bg-subtle focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
                >
                  {/* What the visitor asked first says more than an id; the id (first 8 characters) stays, small. */}
                  <span className={`min-w-0 truncate text-sm ${firstQuestion(s) ? "font-medium text-fg" : "text-muted italic"}`}>{firstQuestion(s) || L.noQuestion}</span>
                  <span className="text-right text-xs text-muted tabular-nums">{L.messages(s.messageCount)}</span>
                  <span className="col-span-2 min-w-0 text-xs text-muted">
                    <span className="sr-only">{L.lastMessage}: </span>
                    {s.lastMessageAt ? formatTime(s.lastMessageAt, timeFormat.elsewhere) : formatTime(s.sessionInfo.startedAt, timeFormat.elsewhere)}
                    <span aria-hidden="true"> · </span>
                    <span className="sr-only">{L.referrer}: </span>
                    <span className="[overflow-wrap:anywhere]" title={s.sessionInfo.referrer || undefined}>
                      {s.sessionInfo.referrer ? pageOf(s.sessionInfo.referrer) : L.directVisit}
                    </span>
                    <span aria-hidden="true"> · </span>
                    <span className="sr-only">{L.session}: </span>
                    <span className="font-mono">{shortSessionId(s.sessionId)}</span>
                  </span>
                  <span className="col-span-2 min-w-0 text-xs [overflow-wrap:anywhere]">
                    <span className="sr-only">{V.visitorColumn}: </span>
                    {s.visitor ? (
                      <span className="font-medium text-fg">
                        {visitorName(s.visitor)}
                        {s.visitor.email && s.visitor.name ? <span className="font-normal text-muted"> · {s.visitor.email}</span> : null}
                        <span className="font-mono font-normal text-muted"> · {s.visitor.id}</span>
                      </span>
                    ) : (
                      <span className="text-faint">{V.anonymous}</span>
                    )}
                  </span>
                </button>
                {s.visitor && s.visitor.id !== user && (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    className="mx-4 mb-2 self-start sm:mx-2 sm:mb-0 sm:self-center"
                    aria-label={V.filterByUser(visitorName(s.visitor))}
                    onClick={() => filterBy(s.visitor!.id)}
                  >
                    {V.filterApply}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>

      {totalPages > 1 && (
        <nav aria-label={L.pagination} className="flex items-center justify-between gap-2">
          <Button variant="secondary" size="sm" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={current <= 1 || loading}>
            <ChevronLeftIcon size={15} /> {L.previous}
          </Button>
          <span className="text-sm text-muted tabular-nums">{L.pageOf(current, totalPages)}</span>
          <Button variant="secondary" size="sm" onClick={() => setPage((p) => Math.min(totalPages, p + 1))} disabled={current >= totalPages || loading}>
            {L.next} <ChevronRightIcon size={15} />
          </Button>
        </nav>
      )}
      {selected && (
        <SessionDetailDialog
          session={selected}
          primaryColor={assistant.config.customization.primaryColor}
          assistantId={assistant._id}
          onClose={() => onSelect(null)}
          actions={
            <ConversationPrivacyActions
              assistantId={assistant._id}
              session={selected}
              onDeleted={() => {
                onSelect(null);
                refresh();
              }}
            />
          }
        />
      )}
    </div>
  );
}
