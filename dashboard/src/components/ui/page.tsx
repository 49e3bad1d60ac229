/** Building blocks of the pages inside /app: a header and an honest empty state. */
import type { ReactNode } from "react";

export function PageHeader({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-4 border-b border-line pb-6 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-fg">{title}</h1>
        {description && <p className="mt-1.5 max-w-2xl text-sm text-muted">{description}</p>}
      </div>
      {children && <div className="flex shrink-0 items-center gap-2">{children}</div>}
    </header>
  );
}

export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="mt-8 flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-14 text-center"
    >
      <div className="flex size-11 items-center justify-center rounded-full bg-accent-soft text-accent-text">{icon}</div>
      <h2 className="mt-4 text-base font-semibold text-fg">{title}</h2>
      <div className="mt-2 max-w-md space-y-2 text-sm text-muted">{children}</div>
    </section>
  );
}

/** The frame of every /app page: centred, generous spacing. `wide` suits grids of cards. */
export function PageContainer({ children, narrow = false, wide = false }: { children: ReactNode; narrow?: boolean; wide?: boolean }) {
  const width = narrow ? "max-w-3xl" : wide ? "max-w-7xl" : "max-w-5xl";
  return <div className={`mx-auto w-full px-4 py-8 sm:px-8 sm:py-10 ${width}`}>{children}</div>;
}
