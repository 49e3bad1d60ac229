/**
 * The Leads tab of an assistant's page: the "Lead form" card (its state at a glance; Edit opens
 * the editor in place) above the leads, searched (debounced) and paged, newest first, with Export
 * CSV. With no lead yet, an empty state says how leads arrive and opens the form editor.
 */
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { leadLimits, leadsUi as L, type LeadForm, type LeadsResponse, type PublicAssistant } from "../../../../../contract";
import { errorMessage } from "../../../lib/api";
import { saveBlob } from "../../../lib/clipboard";
import { leadsApi } from "../../../lib/leads-api";
import { useLoaded, type Loaded } from "../../../lib/use-loaded";
import { toast } from "../../../stores/toast";
import { RetryAlert } from "../../ui/alert";
import { Button } from "../../ui/button";
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, MailIcon, RefreshIcon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { ListSearch } from "../list-search";
import { LeadFormEditor } from "./lead-form-editor";
import { LeadsList } from "./leads-list";
import { formSummary } from "./leads-model";
import { useCan } from "../../../stores/workspace";

const F = L.form;
/** How long typing pauses before the search runs. */
export const LEADS_SEARCH_DEBOUNCE_MS = 300;

function LeadFormCard({
  assistantId,
  state,
  reload,
  set,
  open,
  setOpen,
}: {
  assistantId: string;
  state: Loaded<LeadForm>;
  reload: () => void;
  set: (state: Loaded<LeadForm>) => void;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const headingId = useId();
  const bodyId = useId();
  const form = state.kind === "ready" ? state.value : null;
  // Editing the form is the managers'; agents and viewers read the leads.
  const manage = useCan("assistants.manage");
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-surface p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-fg">
            {F.title}
            {form ? (
              <span className={`rounded-full px-2 py-px text-[11px] font-medium ${form.enabled ? "bg-success-soft text-success" : "bg-subtle text-muted"}`}>
                {form.enabled ? F.on : F.off}
              </span>
            ) : null}
          </h2>
          <p className="mt-0.5 text-sm text-muted">{open || !form ? F.intro : formSummary(form)}</p>
        </div>
        {form && manage ? (
          <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)} className="self-start">
            {open ? L.form.hide : L.form.edit}
          </Button>
        ) : null}
      </div>
      {state.kind === "loading" ? (
        <div role="status" className="flex h-16 items-center justify-center">
          <Spinner size={18} />
        </div>
      ) : state.kind === "error" ? (
        <div className="mt-3">
          <RetryAlert message={state.message} onRetry={() => void reload()} />
        </div>
      ) : null}
      <div id={bodyId} hidden={!open || !form} className="mt-5 border-t border-line pt-5">
        {form && open ? <LeadFormEditor assistantId={assistantId} form={form} onSaved={(saved) => set({ kind: "ready", value: saved })} /> : null}
      </div>
    </section>
  );
}

export function LeadsPanel({ assistant }: { assistant: PublicAssistant }) {
  const assistantId = assistant._id;
  const headingId = useId();
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<LeadsResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const [exporting, setExporting] = useState(false);
  const [formOpen, setFormOpen] = useState(false);
  const formRef = useRef<HTMLDivElement>(null);
  const fetchForm = useCallback((signal?: AbortSignal) => leadsApi.form(assistantId, signal), [assistantId]);
  const leadForm = useLoaded(fetchForm, F.loadFailed);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(query.trim());
      setPage(1);
    }, LEADS_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    leadsApi.list(assistantId, search, page, controller.signal).then(
      (list) => {
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

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await leadsApi.exportCsv(assistantId);
      saveBlob(blob, fileName);
      toast({ variant: "success", title: L.exported });
    } catch (err) {
      toast({ variant: "destructive", title: errorMessage(err, L.exportFailed) });
    } finally {
      setExporting(false);
    }
  };

  const openForm = () => {
    setFormOpen(true);
    formRef.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  };

  const empty = data !== null && data.total === 0 && search === "" && !loadError;
  const formEnabled = leadForm.state.kind === "ready" ? leadForm.state.value.enabled : assistant.config.leadForm.enabled;

  return (
    <div className="space-y-6">
      <div ref={formRef} className="scroll-mt-4">
        <LeadFormCard
          assistantId={assistantId}
          state={leadForm.state}
          reload={() => void leadForm.reload()}
          set={leadForm.set}
          open={formOpen}
          setOpen={setFormOpen}
        />
      </div>
      <section aria-labelledby={headingId} className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="min-w-0">
            <h2 id={headingId} className="text-base font-semibold text-fg">
              {L.title}
            </h2>
            <p className="mt-0.5 text-sm text-muted">{L.intro}</p>
          </div>
          <div className="flex shrink-0 flex-wrap gap-2">
            <Button variant="ghost" size="sm" aria-label={L.refresh} onClick={() => setAttempt((n) => n + 1)} disabled={loading}>
              <RefreshIcon size={15} />
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void exportCsv()} busy={exporting} disabled={!data?.total}>
              {!exporting && <DownloadIcon size={14} />}
              {L.exportCsv}
            </Button>
          </div>
        </div>

        {loadError ? (
          <RetryAlert message={loadError} onRetry={() => setAttempt((n) => n + 1)} />
        ) : data === null ? (
          <LeadsSkeleton />
        ) : empty ? (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-5 py-10 text-center">
            <div className="flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-text">
              <MailIcon size={18} />
            </div>
            <h3 className="mt-3 text-sm font-semibold text-fg">{L.emptyTitle}</h3>
            <p className="mt-1.5 max-w-lg text-sm text-muted">{formEnabled ? L.emptyOn : L.emptyOff}</p>
            <Button size="sm" className="mt-4" onClick={openForm}>
              {L.emptyAction}
            </Button>
          </div>
        ) : (
          <div className="space-y-3">
            <ListSearch label={L.searchLabel} placeholder={L.searchPlaceholder} value={query} maxLength={leadLimits.maxQueryChars} onChange={setQuery} loading={loading} count={L.count(data.total)} />
            {data.leads.length === 0 ? (
              <p className="rounded-lg bg-subtle px-3 py-3 text-sm text-muted">{L.noMatches(search)}</p>
            ) : (
              <LeadsList assistantId={assistantId} leads={data.leads} dimmed={loading} />
            )}
            {data.totalPages > 1 ? (
              <nav aria-label={L.pagination} className="flex items-center justify-between gap-2 text-sm">
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
            ) : null}
          </div>
        )}
      </section>
    </div>
  );
}

/** Rows' shapes while the first page loads. */
function LeadsSkeleton() {
  return (
    <div role="status" aria-label={L.loading} className="space-y-2">
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-14 animate-pulse rounded-lg bg-subtle" />
      ))}
    </div>
  );
}
