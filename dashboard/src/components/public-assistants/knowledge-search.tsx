/** "Test your knowledge base": GET …/search shows the passages the assistant would retrieve for a question. */
import { useId, useRef, useState, type FormEvent } from "react";
import { knowledgeSearch, publicAssistantUi, type KnowledgeSearchResponse, type PublicAssistant } from "../../../../contract";
import { errorMessage } from "../../lib/api";
import { publicAssistantsApi } from "../../lib/public-assistants-api";
import { FormAlert } from "../ui/alert";
import { Button } from "../ui/button";
import { inputClasses } from "../ui/field";
import { FileIcon, SearchIcon } from "../ui/icons";

const L = publicAssistantUi.code;

export function KnowledgeSearch({ assistant }: { assistant: PublicAssistant }) {
  const inputId = useId();
  const hintId = useId();
  const [query, setQuery] = useState("");
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<KnowledgeSearchResponse["results"] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  const search = async (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (!q) return;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setBusy(true);
    setError(null);
    try {
      const res = await publicAssistantsApi.search(assistant._id, q, c.signal);
      setResults(res.results);
    } catch (err) {
      if (c.signal.aborted) return;
      setResults(null);
      setError(errorMessage(err, L.searchFailed));
    } finally {
      if (controller.current === c) setBusy(false);
    }
  };

  return (
    <section className="border-t border-line pt-5">
      <form role="search" onSubmit={(e) => void search(e)} noValidate>
        <label htmlFor={inputId} className="text-sm font-semibold text-fg">
          {L.searchLabel}
        </label>
        <p id={hintId} className="mt-0.5 text-xs text-muted">
          {L.searchHint}
        </p>
        <div className="mt-2.5 flex gap-2">
          <div className="relative flex-1">
            <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-faint" />
            <input
              id={inputId}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              maxLength={knowledgeSearch.maxQueryChars}
              placeholder={L.searchPlaceholder}
              aria-describedby={hintId}
              className={`${inputClasses} border-line-strong pl-9`}
            />
          </div>
          <Button type="submit" variant="secondary" busy={busy} disabled={!query.trim()}>
            {L.search}
          </Button>
        </div>
      </form>
      <div className="mt-3" aria-live="polite">
        <FormAlert message={error} />
        {results && results.length === 0 && <p className="rounded-lg bg-subtle px-3 py-3 text-sm text-muted">{L.noResults}</p>}
        {results && results.length > 0 && (
          <ol aria-label={L.resultsLabel} className="space-y-2">
            {results.map((r, i) => (
              <li key={`${r.fileId}-${i}`} className="rounded-lg border border-line px-3 py-2.5">
                <p className="flex items-center gap-1.5 text-xs font-medium text-muted">
                  <FileIcon size={13} className="shrink-0" />
                  <span className="truncate">{r.fileName}</span>
                  {r.heading ? (
                    <>
                      <span aria-hidden="true">›</span>
                      <span className="truncate text-fg">{r.heading}</span>
                    </>
                  ) : null}
                </p>
                <p className="mt-1 line-clamp-4 text-sm whitespace-pre-line text-fg">{r.excerpt}</p>
                {r.belowFloor ? <p className="mt-1 text-xs text-muted">{L.belowFloor}</p> : null}
                {r.url && /^https?:\/\//i.test(r.url) ? (
                  <a href={r.url} target="_blank" rel="noopener noreferrer" className="mt-1 block truncate text-xs text-accent-text underline">
                    {r.url}
                  </a>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
