/**
 * Websites an assistant learns from: add a page or a whole site, watch the crawl's
 * progress live (polled while a sync runs), sync again, change the schedule, see each page's
 * outcome, remove a site (its pages leave the knowledge).
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  webSourceUi as L,
  webSources,
  type WebPage,
  type WebSource,
  type WebSourceSchedule,
  type WebSourceScope,
} from "../../../../contract";
import { errorMessage, ApiError } from "../../lib/api";
import { formatDay } from "../../lib/format";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { withScheme } from "./web-source-url";
import { toast } from "../../stores/toast";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { AlertIcon, CheckIcon, ChevronDownIcon, RefreshIcon, TrashIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";

/** How often the list is read again while a source syncs. */
const POLL_MS = 2_000;

const syncing = (s: WebSource) => s.status === "queued" || s.status === "crawling";

export function WebSourcesPanel({ assistantId }: { assistantId: string }) {
  const [sources, setSources] = useState<WebSource[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WebSource | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setSources(await publicAssistantsApi.sources(assistantId));
      setLoadError(null);
    } catch (err) {
      setLoadError(errorMessage(err, L.loadFailed));
    }
  }, [assistantId]);

  useEffect(() => {
    void load();
  }, [load]);

  // Live progress: read the list again every POLL_MS while any source syncs and the tab is visible.
  const anySyncing = !!sources?.some(syncing);
  useEffect(() => {
    if (!anySyncing) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void load();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [anySyncing, load]);

  const replace = (source: WebSource) => setSources((list) => (list ?? []).map((s) => (s._id === source._id ? source : s)));

  const remove = async () => {
    if (!removing) return;
    setRemoveBusy(true);
    try {
      await publicAssistantsApi.removeSource(assistantId, removing._id);
      setSources((list) => (list ?? []).filter((s) => s._id !== removing._id));
      toast({ title: L.removed, variant: "success" });
      setRemoving(null);
    } catch (err) {
      toast({ title: errorMessage(err, L.remove), variant: "destructive" });
    } finally {
      setRemoveBusy(false);
    }
  };

  return (
    <section aria-labelledby="web-sources-title" className="space-y-4">
      <div>
        <h3 id="web-sources-title" className="text-sm font-semibold text-fg">
          {L.title}
        </h3>
        <p className="mt-0.5 text-xs text-muted">{L.description}</p>
      </div>
      <AddSourceForm
        assistantId={assistantId}
        disabled={(sources?.length ?? 0) >= webSources.maxSources}
        onAdded={(source) => setSources((list) => [source, ...(list ?? []).filter((s) => s._id !== source._id)])}
      />
      {loadError ? (
        <div className="space-y-2">
          <FormAlert message={loadError} />
          <Button variant="secondary" size="sm" onClick={() => void load()}>
            <RefreshIcon size={14} />
            {L.retry}
          </Button>
        </div>
      ) : null}
      {sources === null && !loadError ? (
        <Spinner size={16} />
      ) : sources && sources.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line-strong px-3 py-3 text-xs text-muted">{L.empty}</p>
      ) : (
        <ul className="divide-y divide-line rounded-lg border border-line" aria-label={L.title}>
          {(sources ?? []).map((source) => (
            <SourceRow key={source._id} assistantId={assistantId} source={source} onChange={replace} onRemove={() => setRemoving(source)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={L.remove}
        description={removing ? L.removeConfirm(removing.url) : ""}
        confirmLabel={L.remove}
        cancelLabel="Cancel"
        busy={removeBusy}
        onConfirm={() => void remove()}
      />
    </section>
  );
}

function AddSourceForm({ assistantId, disabled, onAdded }: { assistantId: string; disabled: boolean; onAdded: (s: WebSource) => void }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [scope, setScope] = useState<WebSourceScope>("site");
  const [maxPages, setMaxPages] = useState(String(webSources.defaultMaxPages));
  const [schedule, setSchedule] = useState<WebSourceSchedule>("off");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      const pages = Number(maxPages);
      const source = await publicAssistantsApi.addSource(assistantId, {
        url: withScheme(url),
        scope,
        ...(scope === "site" ? { maxPages: Number.isFinite(pages) ? pages : -1 } : {}),
        schedule,
      });
      onAdded(source);
      setUrl("");
      toast({ title: L.added, variant: "success" });
    } catch (err) {
      // A field's error is said once, under its field; the alert is for the rest.
      const fields = err instanceof ApiError && err.fields ? err.fields : {};
      setFieldErrors(fields);
      const message = errorMessage(err, L.add);
      setError(Object.values(fields).includes(message) ? null : message);
    } finally {
      setBusy(false);
    }
  };

  const selectClasses = `${inputClasses} border-line-strong`;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-3 rounded-lg border border-line bg-subtle/40 p-3 sm:grid-cols-2">
      {error ? (
        <div className="sm:col-span-2">
          <FormAlert message={error} />
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <label htmlFor={`${id}-url`} className="mb-1.5 block text-sm font-medium text-fg">
          {L.urlLabel}
        </label>
        <input
          id={`${id}-url`}
          type="text"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={L.urlPlaceholder}
          maxLength={webSources.maxUrlChars}
          aria-invalid={fieldErrors.url ? true : undefined}
          aria-describedby={fieldErrors.url ? `${id}-url-error` : undefined}
          className={`${selectClasses} text-base sm:text-sm`}
        />
        {fieldErrors.url ? (
          <p id={`${id}-url-error`} className="mt-1 text-xs text-danger">
            {fieldErrors.url}
          </p>
        ) : null}
      </div>
      <fieldset className="sm:col-span-2">
        <legend className="mb-1.5 text-sm font-medium text-fg">{L.scopeLabel}</legend>
        <div className="flex flex-wrap gap-4">
          {webSources.scopes.map((value) => (
            <label key={value} className="inline-flex items-center gap-2 text-sm text-fg">
              <input type="radio" name={`${id}-scope`} value={value} checked={scope === value} onChange={() => setScope(value)} className="accent-accent" />
              {L.scopes[value]}
            </label>
          ))}
        </div>
      </fieldset>
      {scope === "site" ? (
        <div>
          <label htmlFor={`${id}-pages`} className="mb-1.5 block text-sm font-medium text-fg">
            {L.maxPagesLabel}
          </label>
          <input
            id={`${id}-pages`}
            type="number"
            min={1}
            max={webSources.maxMaxPages}
            value={maxPages}
            onChange={(e) => setMaxPages(e.target.value)}
            aria-invalid={fieldErrors.maxPages ? true : undefined}
            className={`${selectClasses} text-base sm:text-sm`}
          />
          {fieldErrors.maxPages ? <p className="mt-1 text-xs text-danger">{fieldErrors.maxPages}</p> : null}
        </div>
      ) : null}
      <div>
        <label htmlFor={`${id}-schedule`} className="mb-1.5 block text-sm font-medium text-fg">
          {L.scheduleLabel}
        </label>
        <select id={`${id}-schedule`} value={schedule} onChange={(e) => setSchedule(e.target.value as WebSourceSchedule)} className={`${selectClasses} text-base sm:text-sm`}>
          {webSources.schedules.map((value) => (
            <option key={value} value={value}>
              {L.schedules[value]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end sm:col-span-2">
        <Button type="submit" busy={busy} disabled={disabled || busy}>
          {busy ? L.adding : L.add}
        </Button>
      </div>
    </form>
  );
}

const statusStyles: Record<WebSource["status"], string> = {
  queued: "bg-warning-soft text-warning-fg",
  crawling: "bg-warning-soft text-warning-fg",
  ready: "bg-success-soft text-success",
  failed: "bg-danger-soft text-danger",
};

function SourceRow({ assistantId, source, onChange, onRemove }: { assistantId: string; source: WebSource; onChange: (s: WebSource) => void; onRemove: () => void }) {
  const [open, setOpen] = useState(false);
  const [syncBusy, setSyncBusy] = useState(false);
  const pagesId = useId();
  const running = syncing(source);

  const sync = async () => {
    setSyncBusy(true);
    try {
      onChange(await publicAssistantsApi.syncSource(assistantId, source._id));
      toast({ title: L.syncStarted, variant: "success" });
    } catch (err) {
      toast({ title: errorMessage(err, L.sync), variant: "destructive" });
    } finally {
      setSyncBusy(false);
    }
  };

  const reschedule = async (schedule: WebSourceSchedule) => {
    try {
      onChange(await publicAssistantsApi.updateSource(assistantId, source._id, { schedule }));
    } catch (err) {
      toast({ title: errorMessage(err, L.scheduleLabel), variant: "destructive" });
    }
  };

  return (
    <li className="px-3 py-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <a href={source.url} target="_blank" rel="noopener noreferrer" className="block truncate text-sm font-medium text-fg hover:underline" title={source.url}>
            {source.url}
          </a>
          <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
            <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium ${statusStyles[source.status]}`}>
              {running ? <Spinner size={10} /> : source.status === "ready" ? <CheckIcon size={12} /> : <AlertIcon size={12} />}
              {L.status[source.status]}
            </span>
            <span>{L.scopes[source.scope]}</span>
            <span aria-hidden="true">·</span>
            <span aria-live="polite">{L.progress(source.pagesDone, source.pagesFound, source.pagesFailed)}</span>
            <span aria-hidden="true">·</span>
            <span>{source.lastSyncedAt ? L.lastSynced(formatDay(source.lastSyncedAt)) : L.neverSynced}</span>
          </div>
          {source.status === "failed" && source.error ? <p className="mt-1 text-xs text-danger">{source.error}</p> : null}
        </div>
        <div className="flex items-center gap-1.5">
          <label className="sr-only" htmlFor={`${pagesId}-schedule`}>
            {L.scheduleLabel}
          </label>
          <select
            id={`${pagesId}-schedule`}
            value={source.schedule}
            onChange={(e) => void reschedule(e.target.value as WebSourceSchedule)}
            className="h-8 rounded-lg border border-line-strong bg-surface px-2 text-xs text-fg"
          >
            {webSources.schedules.map((value) => (
              <option key={value} value={value}>
                {L.schedules[value]}
              </option>
            ))}
          </select>
          <Button variant="secondary" size="sm" onClick={() => void sync()} disabled={running || syncBusy} busy={syncBusy}>
            <RefreshIcon size={14} />
            {L.sync}
          </Button>
          <Button variant="ghost" size="sm" aria-label={`${L.remove} ${source.url}`} onClick={onRemove}>
            <TrashIcon size={14} />
          </Button>
        </div>
      </div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={pagesId}
        onClick={() => setOpen((o) => !o)}
        className="mt-2 inline-flex items-center gap-1 rounded text-xs font-medium text-accent-text focus-visible:outline-2 focus-visible:outline-accent"
      >
        <ChevronDownIcon size={14} className={open ? "rotate-180" : ""} />
        {L.pages} ({source.pagesFound})
      </button>
      {open ? <PageList id={pagesId} assistantId={assistantId} source={source} /> : null}
    </li>
  );
}

function PageList({ id, assistantId, source }: { id: string; assistantId: string; source: WebSource }) {
  const [pages, setPages] = useState<WebPage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stamp = `${source.pagesDone}/${source.pagesFailed}/${source.status}`;
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    publicAssistantsApi
      .sourcePages(assistantId, source._id, c.signal)
      .then((list) => {
        setPages(list);
        setError(null);
      })
      .catch((err: unknown) => {
        if (!c.signal.aborted) setError(errorMessage(err, L.pages));
      });
    return () => c.abort();
  }, [assistantId, source._id, stamp]);

  if (error) return <FormAlert message={error} />;
  if (!pages) return <Spinner size={14} />;
  return (
    <ul id={id} className="mt-2 max-h-64 divide-y divide-line overflow-y-auto rounded-md border border-line text-xs" aria-label={`${L.pages}: ${source.url}`}>
      {pages.map((page) => (
        <li key={page._id} className="flex items-start gap-2 px-2.5 py-2">
          <div className="min-w-0 flex-1">
            <a href={page.url} target="_blank" rel="noopener noreferrer" className="block truncate text-fg hover:underline" title={page.url}>
              {page.title || page.url}
            </a>
            {page.title ? <p className="truncate text-faint">{page.url}</p> : null}
            {page.status === "failed" && page.error ? <p className="text-danger">{page.error}</p> : null}
          </div>
          <span className={`shrink-0 rounded-full px-2 py-0.5 font-medium ${page.status === "failed" ? "bg-danger-soft text-danger" : page.status === "pending" ? "bg-warning-soft text-warning-fg" : page.status === "removed" ? "bg-subtle text-muted" : "bg-success-soft text-success"}`}>
            {L.pageStatus[page.status]}
          </span>
        </li>
      ))}
    </ul>
  );
}
