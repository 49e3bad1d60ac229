/** A Settings section: a named region (heading + description) with its content in a card. */
import { useId, type ReactNode } from "react";

export function SettingsSection({ title, description, icon, children }: { title: string; description?: ReactNode; icon: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-4 py-8 first:pt-6 lg:grid-cols-[220px_1fr] lg:gap-10">
      <div>
        <h2 id={id} className="flex items-center gap-2 text-base font-semibold text-fg">
          <span className="text-muted">{icon}</span>
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-muted">{description}</p>}
      </div>
      <div className="min-w-0 rounded-xl border border-line bg-surface p-5 sm:p-6">{children}</div>
    </section>
  );
}
