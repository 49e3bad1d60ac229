/**
 * The workspace's audit log (owner and admins): newest first, filtered by person (the members)
 * and action, a page at a time; each entry in words ("Nadia removed amina@example.com"), its time
 * and the assistant it concerns.
 */
import { useCallback, useId, useState } from "react";
import { appMessages, auditActions, teamUi, type AuditAction, type TeamMember } from "../../../../contract";
import { formatTime } from "../../lib/format";
import { teamApi } from "../../lib/team-api";
import { useLoaded } from "../../lib/use-loaded";
import { RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { inputClasses } from "../ui/field";
import { ChevronLeftIcon, ChevronRightIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { auditSentence, personName } from "./team-model";

const A = teamUi.audit;

export function AuditLog({ members }: { members: TeamMember[] }) {
  const titleId = useId();
  const actorId = useId();
  const actionId = useId();
  const [page, setPage] = useState(1);
  const [actor, setActor] = useState("");
  const [action, setAction] = useState<AuditAction | "">("");
  const fetchPage = useCallback((signal?: AbortSignal) => teamApi.audit({ page, actor, action }, signal), [page, actor, action]);
  const { state, reload } = useLoaded(fetchPage, A.loadError);
  const filtered = actor !== "" || action !== "";
  const selectClasses = `${inputClasses} border-line-strong text-base sm:text-sm`;

  return (
    <section aria-labelledby={titleId} className="space-y-4">
      <div>
        <h2 id={titleId} className="text-base font-semibold text-fg">
          {A.title}
        </h2>
        <p className="mt-1 text-sm text-muted">{A.description}</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:max-w-2xl">
        <div>
          <label htmlFor={actorId} className="mb-1.5 block text-sm font-medium text-fg">
            {A.filterActor}
          </label>
          <select
            id={actorId}
            value={actor}
            onChange={(e) => {
              setActor(e.target.value);
              setPage(1);
            }}
            className={selectClasses}
          >
            <option value="">{A.anyone}</option>
            {members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {personName(m)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={actionId} className="mb-1.5 block text-sm font-medium text-fg">
            {A.filterAction}
          </label>
          <select
            id={actionId}
            value={action}
            onChange={(e) => {
              setAction(e.target.value as AuditAction | "");
              setPage(1);
            }}
            className={selectClasses}
          >
            <option value="">{A.anyAction}</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {A.actionNames[a] ?? a}
              </option>
            ))}
          </select>
        </div>
      </div>

      {state.kind === "loading" && (
        <div className="flex h-24 items-center justify-center text-faint" role="status">
          <Spinner size={20} />
          <span className="sr-only">{appMessages.loading}</span>
        </div>
      )}
      {state.kind === "error" && <RetryAlert message={state.message} onRetry={() => void reload()} />}
      {state.kind === "ready" && state.value.entries.length === 0 && (
        <p className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-sm text-muted">{filtered ? A.emptyFiltered : A.empty}</p>
      )}
      {state.kind === "ready" && state.value.entries.length > 0 && (
        <>
          <p className="text-xs text-muted tabular-nums">{A.count(state.value.total)}</p>
          <ol aria-label={A.listLabel} className="divide-y divide-line rounded-xl border border-line bg-surface">
            {state.value.entries.map((e) => (
              <li key={e.id} className="space-y-0.5 px-4 py-3">
                <p className="text-sm text-fg [overflow-wrap:anywhere]">{auditSentence(e)}</p>
                <p className="text-xs text-muted">
                  <time dateTime={new Date(e.at).toISOString()}>{formatTime(e.at)}</time>
                  {e.assistant && (
                    <>
                      <span aria-hidden="true"> · </span>
                      <span className="[overflow-wrap:anywhere]">{A.assistant(e.assistant.name)}</span>
                    </>
                  )}
                </p>
              </li>
            ))}
          </ol>
          {state.value.totalPages > 1 && (
            <nav aria-label={A.pagination} className="flex items-center justify-between gap-2">
              <Button variant="secondary" size="sm" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1}>
                <ChevronLeftIcon size={15} /> {A.previous}
              </Button>
              <span className="text-sm text-muted tabular-nums">{A.pageOf(state.value.page, state.value.totalPages)}</span>
              <Button variant="secondary" size="sm" onClick={() => setPage((p) => Math.min(state.value.totalPages, p + 1))} disabled={page >= state.value.totalPages}>
                {A.next} <ChevronRightIcon size={15} />
              </Button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
