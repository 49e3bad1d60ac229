/**
 * The knowledge files of an assistant, on its page's Knowledge tab: a table of name, size
 * (B / KB / MB as fits), upload date and time, status (the reason when it failed), passages, remove.
 * A text snippet's row says it is a text and has Edit (`onEdit`); a row being saved (`busy`) has no actions.
 * On a narrow screen the table scrolls sideways inside its own focusable region; the page does not.
 * The card on the grid shows only an overview line (assistant-card.tsx).
 */
import { knowledgeTextUi, publicAssistantUi, type KnowledgeFile } from "../../../../contract";
import { formatBytes, formatTime } from "../../lib/format";
import { AlertIcon, CheckIcon, FileIcon, PencilIcon, TrashIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { Tooltip } from "../ui/tooltip";

const L = publicAssistantUi.card;
const C = L.fileColumns;

const statusStyles: Record<KnowledgeFile["status"], string> = {
  processing: "bg-warning-soft text-warning-fg",
  ready: "bg-success-soft text-success",
  failed: "bg-danger-soft text-danger",
};

function StatusBadge({ status }: { status: KnowledgeFile["status"] }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium whitespace-nowrap ${statusStyles[status]}`}>
      {status === "processing" ? <Spinner size={10} /> : status === "ready" ? <CheckIcon size={12} /> : <AlertIcon size={12} />}
      {L.fileStatus[status]}
    </span>
  );
}

const th = "px-3 py-2 text-left text-xs font-medium whitespace-nowrap text-muted";
const td = "px-3 py-2.5 align-top";

export function KnowledgeFileTable({
  files,
  onRemove,
  onEdit,
  busy,
}: {
  files: readonly KnowledgeFile[];
  onRemove: (file: KnowledgeFile) => void;
  /** Opens a text snippet to edit (texts only). */
  onEdit?: (file: KnowledgeFile) => void;
  /** Rows being saved: shown processing, without actions. */
  busy?: (file: KnowledgeFile) => boolean;
}) {
  if (!files.length) return <p className="rounded-lg border border-dashed border-line-strong px-3 py-3 text-xs text-muted">{L.noFiles}</p>;
  return (
    // A keyboard user can scroll the region too (tabIndex), and a screen reader hears what it holds.
    <div role="region" aria-label={L.knowledgeBase} tabIndex={0} className="relative overflow-x-auto rounded-lg border border-line focus-visible:outline-2 focus-visible:outline-accent">
      <table className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{L.knowledgeBase}</caption>
        <thead className="bg-subtle">
          <tr>
            <th scope="col" className={th}>
              {C.name}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {C.size}
            </th>
            <th scope="col" className={th}>
              {C.uploaded}
            </th>
            <th scope="col" className={th}>
              {C.status}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {C.passages}
            </th>
            <th scope="col" className={th}>
              <span className="sr-only">{C.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {files.map((file) => (
            <tr key={file._id}>
              <th scope="row" className={`${td} text-left font-medium text-fg`}>
                <span className="flex min-w-0 items-start gap-2">
                  {file.kind === "text" ? <PencilIcon size={16} className="mt-0.5 shrink-0 text-faint" /> : <FileIcon size={16} className="mt-0.5 shrink-0 text-faint" />}
                  <span className="block max-w-36 truncate sm:max-w-64" title={file.name}>
                    {file.name}
                  </span>
                  {file.kind === "text" ? (
                    <span className="mt-px shrink-0 rounded bg-accent-soft px-1.5 py-px text-[11px] font-medium text-accent-text">{knowledgeTextUi.badge}</span>
                  ) : null}
                </span>
              </th>
              <td className={`${td} text-right whitespace-nowrap text-muted tabular-nums`}>{formatBytes(file.size)}</td>
              <td className={`${td} whitespace-nowrap text-muted tabular-nums`}>
                <time dateTime={new Date(file.uploadedAt).toISOString()}>{formatTime(file.uploadedAt)}</time>
              </td>
              <td className={td}>
                <StatusBadge status={file.status} />
                {file.status === "failed" && file.error ? <p className="mt-1 max-w-56 text-xs text-danger">{file.error}</p> : null}
              </td>
              <td className={`${td} text-right text-muted tabular-nums`}>{file.status === "ready" ? file.chunkCount : "—"}</td>
              <td className="px-2 py-1.5 text-right align-top whitespace-nowrap">
                {busy?.(file) ? null : (
                  <>
                    {file.kind === "text" && onEdit ? (
                      <button
                        type="button"
                        onClick={() => onEdit(file)}
                        aria-label={knowledgeTextUi.editLabel(file.name)}
                        className="mr-1 inline-flex h-8 items-center gap-1.5 rounded-lg px-2 text-xs font-medium text-muted hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
                      >
                        <PencilIcon size={14} /> {knowledgeTextUi.edit}
                      </button>
                    ) : null}
                    <Tooltip label={L.removeFile(file.name)}>
                      <button
                        type="button"
                        onClick={() => onRemove(file)}
                        aria-label={L.removeFile(file.name)}
                        className="inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-faint hover:bg-danger-soft hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
                      >
                        <TrashIcon size={15} />
                      </button>
                    </Tooltip>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
