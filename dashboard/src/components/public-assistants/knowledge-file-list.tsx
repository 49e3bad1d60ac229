/** The knowledge files of an assistant on its card: name, size, status (the reason when it failed), remove. */
import { publicAssistantUi, type KnowledgeFile } from "../../../../contract";
import { formatDay, formatMegabytes } from "../../lib/format";
import { AlertIcon, CheckIcon, FileIcon, TrashIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { Tooltip } from "../ui/tooltip";

const L = publicAssistantUi.card;

const statusStyles: Record<KnowledgeFile["status"], string> = {
  processing: "bg-warning-soft text-warning-fg",
  ready: "bg-success-soft text-success",
  failed: "bg-danger-soft text-danger",
};

function StatusBadge({ status }: { status: KnowledgeFile["status"] }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium ${statusStyles[status]}`}>
      {status === "processing" ? <Spinner size={10} /> : status === "ready" ? <CheckIcon size={12} /> : <AlertIcon size={12} />}
      {L.fileStatus[status]}
    </span>
  );
}

export function KnowledgeFileList({ files, onRemove }: { files: readonly KnowledgeFile[]; onRemove: (file: KnowledgeFile) => void }) {
  if (!files.length) return <p className="rounded-lg border border-dashed border-line-strong px-3 py-3 text-xs text-muted">{L.noFiles}</p>;
  return (
    <ul className="max-h-56 divide-y divide-line overflow-y-auto rounded-lg border border-line" aria-label={L.knowledgeBase}>
      {files.map((file) => (
        <li key={file._id} className="flex items-start gap-2.5 px-3 py-2.5">
          <FileIcon size={16} className="mt-0.5 shrink-0 text-faint" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-fg" title={file.name}>
              {file.name}
            </p>
            <div className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
              <span>{formatMegabytes(file.size)}</span>
              <span aria-hidden="true">·</span>
              <span>{formatDay(file.uploadedAt)}</span>
              {file.status === "ready" && file.chunkCount > 0 ? (
                <>
                  <span aria-hidden="true">·</span>
                  <span>{L.passages(file.chunkCount)}</span>
                </>
              ) : null}
              <StatusBadge status={file.status} />
            </div>
            {file.status === "failed" && file.error ? <p className="mt-1 text-xs text-danger">{file.error}</p> : null}
          </div>
          <Tooltip label={L.removeFile(file.name)}>
            <button
              type="button"
              onClick={() => onRemove(file)}
              aria-label={L.removeFile(file.name)}
              className="-mr-1 inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-faint hover:bg-danger-soft hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
            >
              <TrashIcon size={15} />
            </button>
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}
