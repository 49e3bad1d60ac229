/**
 * Tabs (WAI-ARIA tabs pattern): a tablist of buttons, arrow keys / Home / End move between tabs and
 * select them, only the selected tab is in the Tab order, each panel is labelled by its tab.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** A count beside the label (hidden when 0), and its words for screen readers. */
  badge?: { count: number; label: string };
}

export function useTabIds(prefix?: string) {
  const id = useId();
  const base = prefix ?? id;
  return {
    tab: (key: string) => `${base}-tab-${key}`,
    panel: (key: string) => `${base}-panel-${key}`,
  };
}

export function TabList<K extends string>({
  items,
  value,
  onChange,
  label,
  ids,
  className = "",
  scrollable = false,
}: {
  items: readonly TabItem<K>[];
  value: K;
  onChange: (key: K) => void;
  label: string;
  ids: ReturnType<typeof useTabIds>;
  className?: string;
  /** Tabs keep their width and the list scrolls sideways when they do not fit (a phone, many tabs). */
  scrollable?: boolean;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((t) => t.key === value);
    let next = -1;
    if (e.key === "ArrowRight") next = (index + 1) % items.length;
    else if (e.key === "ArrowLeft") next = (index - 1 + items.length) % items.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const key = items[next]!.key;
    onChange(key);
    refs.current[key]?.focus();
  };

  // A scrolling list keeps its selected tab in view (opened on a tab past the edge, Back, arrows),
  // sideways only: the page itself does not move.
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = list.current;
    const tab = refs.current[value];
    if (!scrollable || !el || !tab) return;
    const box = el.getBoundingClientRect();
    const { left, right } = tab.getBoundingClientRect();
    if (left < box.left) el.scrollLeft -= box.left - left + 4;
    else if (right > box.right) el.scrollLeft += right - box.right + 4;
  }, [scrollable, value]);
  return (
    <div
      ref={list}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={`flex gap-1 rounded-lg bg-subtle p-1 ${scrollable ? "overflow-x-auto overscroll-x-contain [scrollbar-width:thin]" : ""} ${className}`}
    >
      {items.map((t) => {
        const selected = t.key === value;
        return (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[t.key] = el;
            }}
            type="button"
            role="tab"
            id={ids.tab(t.key)}
            aria-selected={selected}
            aria-controls={ids.panel(t.key)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t.key)}
            className={`rounded-md py-1.5 text-sm leading-tight font-medium transition-colors focus-visible:outline-2 focus-visible:outline-accent ${
              // Inside a scrolling list an outline outside the tab would be clipped.
              scrollable ? "shrink-0 px-3 whitespace-nowrap focus-visible:-outline-offset-2" : "flex-1 px-2 sm:flex-none sm:whitespace-nowrap sm:px-3"
            } ${selected ? "bg-surface text-fg shadow-sm" : "text-muted hover:text-fg"}`}
          >
            {t.label}
            {t.badge && t.badge.count > 0 ? (
              <span className="relative ml-1.5 inline-block min-w-5 rounded-full bg-warning-soft px-1.5 text-center text-xs leading-5 font-semibold text-warning-fg ring-1 ring-warning-line tabular-nums">
                <span aria-hidden="true">{t.badge.count}</span>
                <span className="sr-only">{t.badge.label}</span>
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}

/**
 * A tab's panel. `inactive` keeps a panel mounted but invisible and inert: panels stacked in one
 * grid cell (see TabPanels) give their container the tallest one's height, so a dialog does not
 * jump when the tab changes.
 */
export function TabPanel({
  tabKey,
  ids,
  children,
  className = "",
  inactive = false,
  hidden = false,
}: {
  tabKey: string;
  ids: ReturnType<typeof useTabIds>;
  children: ReactNode;
  className?: string;
  inactive?: boolean;
  /** Not shown at all (takes no room), for panels that are not stacked. */
  hidden?: boolean;
}) {
  return (
    <div
      role="tabpanel"
      hidden={hidden}
      id={ids.panel(tabKey)}
      aria-labelledby={ids.tab(tabKey)}
      tabIndex={inactive ? -1 : 0}
      inert={inactive}
      aria-hidden={inactive || undefined}
      className={`focus:outline-none focus-visible:outline-2 focus-visible:outline-accent ${inactive ? "invisible" : ""} ${className}`}
    >
      {children}
    </div>
  );
}

/** Stacks TabPanels in one grid cell: the container is as tall as the tallest panel. */
export function TabPanels({ children }: { children: ReactNode }) {
  return <div className="grid [&>*]:[grid-area:1/1]">{children}</div>;
}
