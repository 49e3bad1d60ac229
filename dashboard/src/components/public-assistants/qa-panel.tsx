/**
 * Curated answers, a section of the Knowledge tab: the pairs, searched and paged (question,
 * variants, mode, uses, last change), Add / Edit / Delete, CSV import (how many were imported and
 * each refused row's line and reason) and export, and the assistant's strictness. With no pairs, an
 * empty state says what they are and offers Add and Import.
 */
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { qaLimits, qaUi as L, type PublicAssistant, type QaImportResponse, type QaListResponse, type QaPair } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { saveBlob } from "../../lib/clipboard";
import { formatDay } from "../../lib/format";
import { qaApi } from "../../lib/qa-api";
import { toast } from "../../stores/toast";
import { FormAlert, RetryAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, MessageIcon, PencilIcon, PlusIcon, TrashIcon, UploadIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { ListSearch } from "./list-search";
import { useQaEditor } from "./qa-editor";
import { QaStrictnessSetting } from "./qa-strictness";

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

type ImportState = { state: "idle" } | { state: "uploading"; percent: number } | { state: "done"; result: QaImportResponse } | { state: "failed"; message: string };

export function QaPanel({ assistant, reload }: { assistant: PublicAssistant; reload: () => void }) {
  const headingId = useId();
  const assistantId = assistant._id;
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<QaListResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const [deleting, setDeleting] = useState<QaPair | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [importing, setImporting] = useState<ImportState>({ state: "idle" });
  const [exporting, setExporting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const refresh = useCallback(() => setAttempt((n) => n + 1), []);
  const editor = useQaEditor(assistantId, refresh);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(query.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    qaApi.list(assistantId, search, page, controller.signal).then(
      (list) => {
        // A page emptied by deletions: show the last one that has pairs.
        if (list.qa.length === 0 && page > 1 && list.totalPages < page) setPage(Math.max(1, list.totalPages));
        setData(list);
        setLoadError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setLoadError(errorMessage(err, L.loadFailed));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [assistantId, search, page, attempt]);

  const remove = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await qaApi.remove(assistantId, deleting.id);
      toast({ title: L.deleted, variant: "success" });
      setDeleting(null);
      refresh();
    } catch (err) {
      toast({ title: errorMessage(err, L.deleteFailed), variant: "destructive" });
    } finally {
      setDeleteBusy(false);
    }
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ""; // the same file can be picked again after a fix
    if (!file) return;
    setImporting({ state: "uploading", percent: 0 });
    try {
      const result = await qaApi.importCsv(assistantId, file, {
        onProgress: (loaded, total) => setImporting({ state: "uploading", percent: total ? Math.round((loaded / total) * 100) : 0 }),
      });
      setImporting({ state: "done", result });
      setQuery("");
      setSearch("");
      setPage(1);
      refresh();
    } catch (err) {
      setImporting({ state: "failed", message: errorMessage(err, L.importFailed) });
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await qaApi.exportCsv(assistantId);
      saveBlob(blob, fileName);
    } catch (err) {
      toast({ title: errorMessage(err, L.exportFailed), variant: "destructive" });
    } finally {
      setExporting(false);
    }
  };

  const uploading = importing.state === "uploading";
  const pickFile = () => fileInput.current?.click();
  const empty = data !== null && data.total === 0 && search === "" && !loadError;
  const importButton = (
    <Button variant="secondary" size="sm" onClick={pickFile} busy={uploading}>
      {!uploading && <UploadIcon size={14} />}
      {uploading ? L.importing(importing.percent) : L.importCsv}
    </Button>
  );
  const addButton = (
    <Button size="sm" onClick={() => editor.open({})}>
      <PlusIcon size={14} />
      {L.add}
    </Button>
  );

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-fg">
            {L.title}
          </h2>
          <p className="mt-0.5 text-sm text-muted">{L.description}</p>
        </div>
        {!empty && (
          <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
            {addButton}
            {importButton}
            <Button variant="secondary" size="sm" onClick={() => void exportCsv()} busy={exporting} disabled={!data?.total}>
              {!exporting && <DownloadIcon size={14} />}
              {L.exportCsv}
            </Button>
          </div>
        )}
      </div>
      <input ref={fileInput} type="file" accept=".csv,text/csv" className="hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => void importFile(e)} />

      <ImportResult state={importing} onDismiss={() => setImporting({ state: "idle" })} />

      {loadError ? (
        <RetryAlert message={loadError} onRetry={refresh} />
      ) : data === null ? (
        <div role="status" className="flex min-h-24 items-center justify-center">
          <Spinner size={18} />
        </div>
      ) : empty ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-5 py-10 text-center">
          <div className="flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-text">
            <MessageIcon size={18} />
          </div>
          <h3 className="mt-3 text-sm font-semibold text-fg">{L.emptyTitle}</h3>
          <p className="mt-1.5 max-w-lg text-sm text-muted">{L.emptyText}</p>
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            {addButton}
            {importButton}
          </div>
          <p className="mt-3 max-w-lg text-xs text-faint">{L.importHint(qaLimits.maxImportRows, qaLimits.csvVariantSeparator)}</p>
        </div>
      ) : (
        <div className="space-y-3">
          <ListSearch label={L.searchLabel} placeholder={L.searchPlaceholder} value={query} maxLength={qaLimits.maxSearchChars} onChange={setQuery} loading={loading} count={L.count(data.total)} />
          {data.qa.length === 0 ? (
            <p className="rounded-lg bg-subtle px-3 py-3 text-sm text-muted">{L.noMatches(search)}</p>
          ) : (
            <PairTable pairs={data.qa} dimmed={loading} onEdit={(pair) => editor.open({ pair })} onDelete={setDeleting} />
          )}
          {data.totalPages > 1 && (
            <nav aria-label={L.listLabel} className="flex items-center justify-between gap-2 text-sm">
              <Button variant="secondary" size="sm" disabled={page <= 1 || loading} onClick={() => setPage((p) => p - 1)}>
                <ChevronLeftIcon size={14} />
                {L.previous}
              </Button>
              <span className="text-xs text-muted tabular-nums">{L.pageOf(data.page, data.totalPages)}</span>
              <Button variant="secondary" size="sm" disabled={page >= data.totalPages || loading} onClick={() => setPage((p) => p + 1)}>
                {L.next}
                <ChevronRightIcon size={14} />
              </Button>
            </nav>
          )}
        </div>
      )}

      {!empty && data !== null && <QaStrictnessSetting assistant={assistant} onSaved={reload} />}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={L.deleteTitle}
        description={deleting ? L.deleteConfirm(deleting.question) : ""}
        confirmLabel={L.delete}
        cancelLabel={L.cancel}
        busy={deleteBusy}
        onConfirm={() => void remove()}
      />
      {editor.element}
    </section>
  );
}

function ImportResult({ state, onDismiss }: { state: ImportState; onDismiss: () => void }) {
  if (state.state === "failed") {
    return (
      <div className="space-y-2">
        <FormAlert message={state.message} />
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          {L.dismiss}
        </Button>
      </div>
    );
  }
  if (state.state !== "done") return null;
  const { imported, failed } = state.result;
  return (
    <div role="status" className={`rounded-lg border px-3 py-3 text-sm ${failed.length ? "border-warning-line bg-warning-soft" : "border-line bg-success-soft"}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-fg">{L.imported(imported)}</p>
          {failed.length > 0 && <p className="mt-0.5 text-fg">{L.importFailedRows(failed.length)}</p>}
        </div>
        <Button variant="ghost" size="sm" onClick={onDismiss} className="-my-1 shrink-0">
          {L.dismiss}
        </Button>
      </div>
      {failed.length > 0 && (
        <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto rounded-md bg-surface/70 px-2 py-2 text-xs">
          {failed.map((row) => (
            <li key={row.line} className="flex gap-2">
              <span className="shrink-0 font-medium text-fg tabular-nums">{L.importLine(row.line)}</span>
              <span className="min-w-0 text-muted [overflow-wrap:anywhere]">{row.error}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The pairs as a table; on a phone the columns fold into a line under the question. */
function PairTable({ pairs, dimmed, onEdit, onDelete }: { pairs: QaPair[]; dimmed: boolean; onEdit: (p: QaPair) => void; onDelete: (p: QaPair) => void }) {
  const C = L.columns;
  const cell = "hidden px-3 py-2.5 align-top whitespace-nowrap text-muted sm:table-cell";
  return (
    <div className={`overflow-hidden rounded-lg border border-line ${dimmed ? "opacity-60" : ""}`}>
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{L.listLabel}</caption>
        <thead className="hidden bg-subtle text-left text-xs text-muted sm:table-header-group">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {C.question}
            </th>
            <th scope="col" className="w-24 px-3 py-2 font-medium">
              {C.variants}
            </th>
            <th scope="col" className="w-20 px-3 py-2 font-medium">
              {C.mode}
            </th>
            <th scope="col" className="w-16 px-3 py-2 text-right font-medium">
              {C.uses}
            </th>
            <th scope="col" className="w-28 px-3 py-2 font-medium">
              {C.updated}
            </th>
            <th scope="col" className="w-24 px-3 py-2">
              <span className="sr-only">{C.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {pairs.map((pair) => (
            <tr key={pair.id}>
              <td className="px-3 py-2.5 align-top">
                <p className="line-clamp-2 font-medium break-words text-fg">{pair.question}</p>
                <p className="mt-0.5 line-clamp-1 text-xs break-words text-muted">{pair.answer}</p>
                <p className="mt-1 text-xs text-muted sm:hidden">
                  {L.modes[pair.mode].label} · {L.variantCount(pair.variants.length)} · {L.usesCount(pair.uses)} · {formatDay(pair.updatedAt)}
                </p>
              </td>
              <td className={cell}>{pair.variants.length}</td>
              <td className={cell}>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${pair.mode === "exact" ? "bg-accent-soft text-accent-text" : "bg-subtle text-fg"}`}>
                  {L.modes[pair.mode].label}
                </span>
              </td>
              <td className={`${cell} text-right tabular-nums`}>{pair.uses.toLocaleString("en")}</td>
              <td className={cell}>
                <time dateTime={new Date(pair.updatedAt).toISOString()}>{formatDay(pair.updatedAt)}</time>
              </td>
              <td className="w-24 px-2 py-2 align-top">
                <div className="flex justify-end gap-1">
                  <Button variant="ghost" size="sm" aria-label={L.editLabel(pair.question)} title={L.edit} onClick={() => onEdit(pair)} className="size-8 px-0">
                    <PencilIcon size={15} />
                  </Button>
                  <Button variant="ghost" size="sm" aria-label={L.deleteLabel(pair.question)} title={L.delete} onClick={() => onDelete(pair)} className="size-8 px-0 text-danger">
                    <TrashIcon size={15} />
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
