/**
 * The search box over a paged list (curated answers, leads) with the list's count beside it,
 * announced as it changes; a spinner in its place while the page loads.
 */
import { inputClasses } from "../ui/field";
import { SearchIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";

export function ListSearch(props: { label: string; placeholder: string; value: string; maxLength: number; onChange: (value: string) => void; loading: boolean; count: string }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <div className="relative sm:max-w-sm sm:flex-1">
        <SearchIcon size={15} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-faint" />
        <input
          type="search"
          aria-label={props.label}
          placeholder={props.placeholder}
          value={props.value}
          maxLength={props.maxLength}
          onChange={(e) => props.onChange(e.target.value)}
          className={`${inputClasses} border-line-strong pl-9 text-base sm:text-sm`}
        />
      </div>
      <span className="text-xs text-muted tabular-nums sm:ml-auto" aria-live="polite">
        {props.loading ? <Spinner size={12} /> : props.count}
      </span>
    </div>
  );
}
