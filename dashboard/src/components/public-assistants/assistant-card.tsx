/**
 * One Public Assistant on the screen's grid (spec section 2): name, description, Active/Inactive badge
 * (or Paused (budget)),
 * the API key, the four figures, a one-line overview of the knowledge files (their table is on the
 * assistant's Knowledge tab), and the buttons Upload Files, Get Code, Edit,
 * View History, Regenerate Key and Delete. The card only reports what was clicked; the page acts.
 * Its name and Open lead to the assistant's own page.
 */
import { useId, type ReactNode } from "react";
import { Link } from "wouter";
import { appRoutes, publicAssistantUi, type PublicAssistant } from "../../../../contract";
import { Button, buttonClasses } from "../ui/button";
import { useCan } from "../../stores/workspace";
import { ArrowRightIcon, CodeIcon, FileIcon, HistoryIcon, KeyIcon, PencilIcon, TrashIcon, UploadIcon } from "../ui/icons";
import { ApiKeyField } from "./api-key-field";
import type { AssistantStatus } from "./budget-alerts";

const L = publicAssistantUi.card;

const statusLook: Record<AssistantStatus, { text: string; className: string }> = {
  active: { text: L.active, className: "bg-success-soft text-success" },
  inactive: { text: L.inactive, className: "bg-subtle text-muted ring-1 ring-line-strong" },
  paused: { text: L.pausedBudget, className: "bg-danger-soft text-danger" },
};

/** Active / Inactive / Paused (budget), as the card and the assistant's page show it. */
export function StatusBadge({ status }: { status: AssistantStatus }) {
  const look = statusLook[status];
  return <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${look.className}`}>{look.text}</span>;
}

export type CardAction = "upload" | "code" | "edit" | "history" | "regenerate" | "delete";

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-lg bg-subtle px-3 py-2">
      <dt className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="mt-0.5 text-base font-semibold text-fg tabular-nums">{value}</dd>
    </div>
  );
}

/** '3 documents · 12 passages', with how many are still processing or failed; or the no-files text. */
function FilesOverview({ files }: { files: PublicAssistant["files"] }) {
  if (!files.length) return <p className="rounded-lg border border-dashed border-line-strong px-3 py-3 text-xs text-muted">{L.noFiles}</p>;
  const passages = files.reduce((sum, f) => sum + (f.status === "ready" ? f.chunkCount : 0), 0);
  const processing = files.filter((f) => f.status === "processing").length;
  const failed = files.filter((f) => f.status === "failed").length;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-line px-3 py-2.5 text-sm text-muted">
      <FileIcon size={16} className="shrink-0 text-faint" />
      <span className="text-fg">{L.filesOverview(files.length, passages)}</span>
      {processing ? <span className="text-warning-fg">· {L.filesProcessing(processing)}</span> : null}
      {failed ? <span className="text-danger">· {L.filesFailed(failed)}</span> : null}
    </p>
  );
}

export function AssistantCard({
  assistant,
  status,
  onAction,
}: {
  assistant: PublicAssistant;
  /** From the budgets (`assistantStatus`): a paused assistant is not shown as active. */
  status: AssistantStatus;
  onAction: (action: CardAction, assistant: PublicAssistant) => void;
}) {
  const headingId = useId();
  const act = (action: CardAction) => () => onAction(action, assistant);
  // What the caller's role in the workspace allows (agents and viewers: the page and History only).
  const manage = useCan("assistants.manage");
  return (
    <article aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4 rounded-xl border border-line bg-surface p-5 shadow-xs">
      <header className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="mt-1 size-3 shrink-0 rounded-full ring-2 ring-line"
          style={{ backgroundColor: assistant.config.customization.primaryColor }}
        />
        <div className="min-w-0 flex-1">
          {/* No name (the spec does not require one): said as a placeholder, not passed off as a name. */}
          <h3 id={headingId} className={`truncate text-base font-semibold ${assistant.name ? "text-fg" : "text-muted italic"}`} title={assistant.name || undefined}>
            <Link href={appRoutes.publicAssistant(assistant._id)} className="rounded-sm hover:underline focus-visible:outline-2 focus-visible:outline-accent">
              {assistant.name || L.untitled}
            </Link>
          </h3>
          <p className={`mt-0.5 line-clamp-2 text-sm ${assistant.description ? "text-muted" : "text-faint italic"}`}>
            {assistant.description || L.noDescription}
          </p>
        </div>
        <StatusBadge status={status} />
      </header>

      {manage && <ApiKeyField assistant={assistant} />}

      <dl className="grid grid-cols-2 gap-2">
        <Stat label={L.messagesPerSession} value={assistant.config.maxMessagesPerSession} />
        <Stat label={L.dailyLimit} value={assistant.config.dailyLimit} />
        {/* Unavailable: the assistant's own object did not answer; a dash, not a misleading 0. */}
        <Stat label={L.documents} value={assistant.stats.unavailable ? "—" : assistant.files.length} />
        <Stat label={L.totalSessions} value={assistant.stats.unavailable ? "—" : assistant.stats.totalSessions} />
      </dl>

      <section aria-label={L.knowledgeBase} className="min-w-0">
        <h4 className="mb-1.5 text-xs font-medium text-muted">{L.knowledgeBase}</h4>
        <FilesOverview files={assistant.files} />
      </section>

      <div className="mt-auto grid grid-cols-2 gap-2 border-t border-line pt-4 sm:grid-cols-3">
        {/* The assistant's own page: the same panels as these dialogs, in tabs, plus the Playground. */}
        <Link
          href={appRoutes.publicAssistant(assistant._id)}
          aria-label={publicAssistantUi.page.openLabel(assistant.name)}
          className={buttonClasses("primary", "sm", "col-span-2 sm:col-span-3")}
        >
          {publicAssistantUi.page.open} <ArrowRightIcon size={15} />
        </Link>
        {manage && (
          <>
            <Button variant="secondary" size="sm" onClick={act("upload")}>
              <UploadIcon size={15} /> {L.uploadFiles}
            </Button>
            <Button variant="secondary" size="sm" onClick={act("code")}>
              <CodeIcon size={15} /> {L.getCode}
            </Button>
            <Button variant="secondary" size="sm" onClick={act("edit")}>
              <PencilIcon size={15} /> {L.edit}
            </Button>
          </>
        )}
        <Button variant="secondary" size="sm" onClick={act("history")}>
          <HistoryIcon size={15} /> {L.viewHistory}
        </Button>
        {manage && (
          <>
            <Button variant="secondary" size="sm" onClick={act("regenerate")}>
              <KeyIcon size={15} /> {L.regenerateKey}
            </Button>
            <Button variant="danger" size="sm" onClick={act("delete")}>
              <TrashIcon size={15} /> {L.delete}
            </Button>
          </>
        )}
      </div>
    </article>
  );
}
