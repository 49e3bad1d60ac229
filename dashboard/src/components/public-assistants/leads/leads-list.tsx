/**
 * The leads as a table on a wide screen (date, contact, other details, what showed the form, a
 * link to the conversation) and as stacked cards on a phone (no sideways scroll at 390 px).
 */
import { Link } from "wouter";
import { leadsUi as L, type Lead } from "../../../../../contract";
import { formatTime } from "../../../lib/format";
import { assistantPageHref } from "../../../pages/app/public-assistant/page-url";
import { buttonClasses } from "../../ui/button";
import { summarizeLead, triggerText } from "./leads-model";

function When({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatTime(at)}</time>;
}

function OpenLink({ assistantId, lead, who }: { assistantId: string; lead: Lead; who: string }) {
  return (
    <Link href={assistantPageHref(assistantId, { tab: "history", session: lead.sessionId })} aria-label={L.openConversationOf(who)} className={buttonClasses("secondary", "sm")}>
      {L.openConversation}
    </Link>
  );
}

function Details({ details }: { details: { label: string; value: string }[] }) {
  if (!details.length) return null;
  return (
    <dl className="space-y-0.5 text-xs">
      {details.map((d, i) => (
        <div key={`${i}-${d.label}`} className="line-clamp-3 min-w-0" title={d.value.length > 120 ? d.value : undefined}>
          <dt className="inline font-medium text-muted">{d.label}: </dt>
          <dd className="inline break-words text-fg">{d.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function LeadsList({ assistantId, leads, dimmed }: { assistantId: string; leads: Lead[]; dimmed: boolean }) {
  const C = L.columns;
  return (
    <div className={dimmed ? "opacity-60" : ""}>
      {/* Phone: one card per lead. */}
      <ul aria-label={L.listLabel} className="space-y-2 sm:hidden">
        {leads.map((lead) => {
          const s = summarizeLead(lead);
          const trigger = triggerText(lead.trigger);
          return (
            <li key={lead.id} className="min-w-0 rounded-lg border border-line bg-surface p-3">
              <div className="flex items-baseline justify-between gap-2">
                <p className="min-w-0 font-medium break-words text-fg">{s.title}</p>
                <span className="shrink-0 text-xs text-muted">
                  <When at={lead.createdAt} />
                </span>
              </div>
              {s.contact.map((c) => (
                <p key={c} className="text-sm break-all text-fg">
                  {c}
                </p>
              ))}
              <div className="mt-1.5">
                <Details details={s.details} />
              </div>
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <span className="text-xs text-muted">{trigger}</span>
                <OpenLink assistantId={assistantId} lead={lead} who={s.title} />
              </div>
            </li>
          );
        })}
      </ul>
      {/* Wider: a table. */}
      <div className="hidden overflow-hidden rounded-lg border border-line sm:block">
        <table className="w-full table-fixed text-sm">
          <caption className="sr-only">{L.listLabel}</caption>
          <thead className="bg-subtle text-left text-xs text-muted">
            <tr>
              <th scope="col" className="w-36 px-3 py-2 font-medium">{C.date}</th>
              <th scope="col" className="px-3 py-2 font-medium">{C.contact}</th>
              <th scope="col" className="hidden px-3 py-2 font-medium md:table-cell">{C.details}</th>
              <th scope="col" className="hidden w-40 px-3 py-2 font-medium lg:table-cell">{C.trigger}</th>
              <th scope="col" className="w-44 px-3 py-2 font-medium">
                <span className="sr-only">{C.conversation}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {leads.map((lead) => {
              const s = summarizeLead(lead);
              return (
                <tr key={lead.id}>
                  <td className="px-3 py-2.5 align-top text-muted">
                    <When at={lead.createdAt} />
                  </td>
                  <td className="min-w-0 px-3 py-2.5 align-top">
                    <p className="font-medium break-words text-fg">{s.title}</p>
                    {s.contact.map((c) => (
                      <p key={c} className="break-all text-muted">
                        {c}
                      </p>
                    ))}
                    {lead.visitor ? <p className="text-xs text-faint">{L.signedVisitor}</p> : null}
                    <div className="mt-1 md:hidden">
                      <Details details={s.details} />
                    </div>
                  </td>
                  <td className="hidden px-3 py-2.5 align-top md:table-cell">
                    <Details details={s.details} />
                  </td>
                  <td className="hidden px-3 py-2.5 align-top text-muted lg:table-cell">{triggerText(lead.trigger)}</td>
                  <td className="px-3 py-2.5 text-right align-top">
                    <OpenLink assistantId={assistantId} lead={lead} who={s.title} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
