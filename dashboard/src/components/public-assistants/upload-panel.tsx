/**
 * Uploading knowledge files (spec sections 4 and 5), shared by the Upload Documents dialog and the
 * assistant page's Knowledge tab: pick or drop files, invalid ones are refused with a toast and the
 * valid ones queued (each removable, with its size); Upload sends them with the progress rule (timer +
 * real bytes, capped at 90 until the server answers), then 100, the queue empties and, 500 ms
 * later, `onUploaded(true)` and the success toast. A failure resets and says why.
 */
import { useEffect, useId, useReducer, useRef, useState, type DragEvent } from "react";
import {
  acceptedExtensions,
  publicAssistantMessages as M,
  publicAssistantUi,
  successMessages,
  upload,
  type KnowledgeUploadResponse,
  type PublicAssistant,
} from "../../../../contract";
import { formatBytes } from "../../lib/format";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { toast } from "../../stores/toast";
import { Button } from "../ui/button";
import { CloseIcon, FileIcon, UploadIcon } from "../ui/icons";
import { uploadFailureText } from "./failure-text";
import { addToQueue, planBatches, rejectionToast } from "./upload-selection";
import { initialUploadProgress, startProgressTimer, uploadProgressLabel, uploadProgressReducer } from "./upload-progress";

const L = publicAssistantUi.upload;

/**
 * The success toast (spec's general 2 s): 'Files Uploaded' with the count processed, or 'Files
 * uploaded successfully' while some are still being processed in the background (embeddings
 * queued), then what went wrong with individual files (which the file list also keeps showing).
 */
export function uploadSuccessToast(result: KnowledgeUploadResponse) {
  const notes = result.files.filter((f) => f.status === "failed" && f.error).map((f) => f.error as string);
  const warnings = result.files.filter((f) => f.warning).map((f) => f.warning as string);
  const extra = [...notes, ...warnings];
  const stillProcessing = result.files.some((f) => f.status === "processing");
  toast({
    variant: extra.length ? "default" : "success",
    title: successMessages.filesUploadedTitle,
    description: [stillProcessing ? successMessages.filesUploaded : successMessages.filesProcessed(result.processed), ...extra].join(" "),
  });
}

function merge(results: KnowledgeUploadResponse[]): KnowledgeUploadResponse {
  const processed = results.reduce((n, r) => n + r.processed, 0);
  return {
    files: results.flatMap((r) => r.files),
    processed,
    failed: results.reduce((n, r) => n + r.failed, 0),
    message: successMessages.filesProcessed(processed),
  };
}

/**
 * The upload's state and actions. `onUploaded(done)`: files landed (also after a later batch
 * failed, `done` false); `done` true once everything landed, 500 ms after 100 %.
 */
export function useKnowledgeUpload(assistant: PublicAssistant, onUploaded: (done: boolean) => void) {
  const [queue, setQueue] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [progress, dispatch] = useReducer(uploadProgressReducer, initialUploadProgress);
  const busy = progress.status !== "idle";
  const abortRef = useRef<AbortController | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      abortRef.current?.abort();
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const addFiles = (list: FileList | readonly File[] | null) => {
    if (!list || busy) return;
    const { queue: next, rejected } = addToQueue(queue, Array.from(list));
    setQueue(next);
    const notice = rejectionToast(rejected);
    if (notice) toast({ variant: "destructive", ...notice });
  };

  const start = async () => {
    if (busy || !queue.length) return;
    const files = queue;
    const totalBytes = files.reduce((n, f) => n + f.size, 0);
    const controller = new AbortController();
    abortRef.current = controller;
    dispatch({ type: "start" });
    const stopTimer = startProgressTimer(dispatch);
    const results: KnowledgeUploadResponse[] = [];
    let sentBefore = 0;
    try {
      for (const batch of planBatches(files)) {
        const result = await publicAssistantsApi.uploadFiles(assistant._id, batch, {
          signal: controller.signal,
          onProgress: (loaded) => dispatch({ type: "sent", loaded: sentBefore + loaded, total: totalBytes }),
        });
        results.push(result);
        sentBefore += batch.reduce((n, f) => n + f.size, 0);
        // A later batch may fail: what landed must not be sent again.
        setQueue((q) => q.filter((f) => !batch.includes(f)));
      }
    } catch (err) {
      stopTimer();
      if (controller.signal.aborted) return;
      dispatch({ type: "reset" });
      toast({ variant: "destructive", title: M.uploadFailedTitle, description: uploadFailureText(err) });
      if (results.length) onUploaded(false);
      return;
    }
    stopTimer();
    dispatch({ type: "succeed" });
    setQueue([]);
    closeTimer.current = setTimeout(() => {
      // Back to idle, for the Knowledge tab's next upload (the dialog closes instead).
      dispatch({ type: "reset" });
      onUploaded(true);
      uploadSuccessToast(merge(results));
    }, upload.progress.closeDelayMs);
  };

  return {
    queue,
    busy,
    progress,
    dragging,
    setDragging,
    addFiles,
    remove: (file: File) => setQueue((q) => q.filter((f) => f !== file)),
    start: () => void start(),
  };
}

export type KnowledgeUpload = ReturnType<typeof useKnowledgeUpload>;

/** The Upload button of an upload. */
export function UploadButton({ upload: u }: { upload: KnowledgeUpload }) {
  return (
    <Button onClick={u.start} disabled={!u.queue.length} busy={u.busy}>
      {!u.busy && <UploadIcon size={16} />} {L.upload}
    </Button>
  );
}

/** The drop zone, the queue and the progress bar of an upload. */
export function UploadFields({ upload: u }: { upload: KnowledgeUpload }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const { busy, progress } = u;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    u.setDragging(false);
    u.addFiles(e.dataTransfer.files);
  };

  return (
    <div className="space-y-4">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!busy) u.setDragging(true);
        }}
        onDragLeave={() => u.setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
          u.dragging ? "border-accent bg-accent-soft" : "border-line-strong bg-subtle/50"
        } ${busy ? "opacity-60" : ""}`}
      >
        <span className="flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <UploadIcon size={20} />
        </span>
        <p className="mt-3 text-sm font-medium text-fg">{L.dropzone}</p>
        <p className="my-1 text-xs text-muted">{L.or}</p>
        <Button variant="secondary" size="sm" onClick={() => inputRef.current?.click()} disabled={busy}>
          {L.browse}
        </Button>
        <p className="mt-3 text-xs text-muted">{L.acceptedHint(acceptedExtensions)}</p>
        <p className="mt-1 max-w-sm text-xs text-muted">{L.processingNote}</p>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={acceptedExtensions.join(",")}
          aria-label={L.chooseFiles}
          tabIndex={-1}
          className="sr-only"
          disabled={busy}
          onChange={(e) => {
            u.addFiles(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
      </div>

      {u.queue.length > 0 && (
        <ul aria-label={L.queueLabel} className="divide-y divide-line rounded-lg border border-line">
          {u.queue.map((file) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}`} className="flex items-center gap-2.5 px-3 py-2">
              <FileIcon size={16} className="shrink-0 text-faint" />
              <span className="min-w-0 flex-1 truncate text-sm text-fg" title={file.name}>
                {file.name}
              </span>
              <span className="shrink-0 text-xs text-muted tabular-nums">{formatBytes(file.size)}</span>
              <button
                type="button"
                onClick={() => u.remove(file)}
                disabled={busy}
                aria-label={L.removeFile(file.name)}
                className="-mr-1 inline-flex size-7 shrink-0 items-center justify-center rounded-md text-faint hover:bg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-40"
              >
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}

      {busy && (
        <div>
          <div className="mb-1.5 flex items-center justify-between text-xs">
            <span className="font-medium text-fg" aria-live="polite">
              {uploadProgressLabel(progress)}
            </span>
            <span className="text-muted tabular-nums">{progress.percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-label={L.progressLabel}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress.percent}
            className="h-2 overflow-hidden rounded-full bg-subtle"
          >
            <div className="h-full rounded-full bg-accent transition-[width] duration-300" style={{ width: `${progress.percent}%` }} />
          </div>
        </div>
      )}
    </div>
  );
}
