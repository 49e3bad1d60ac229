/**
 * A small picture of the lead form as a visitor sees it in the chat, in the language being edited
 * (right to left in Arabic): the intro, each field's label (required marked in words), Send and,
 * unless it is required before the first message, Not now. Inert: nothing in it can be typed in.
 */
import { leadsUi, widgetStrings, type LeadLocale } from "../../../../../contract";
import { localLine, visitorLabel, type FieldKind, type LeadFormDraft } from "./lead-form-draft";

const F = leadsUi.form;

export function LeadFormPreview({ draft, locale, defaultLabel }: { draft: LeadFormDraft; locale: LeadLocale; defaultLabel: (kind: FieldKind, locale: LeadLocale) => string }) {
  const dismissable = draft.beforeFirstMessage !== "required";
  // The widget's own words in the language being edited, as the visitor reads them.
  const W = widgetStrings[locale];
  return (
    <figure className="space-y-2">
      <figcaption className="text-xs text-muted">
        <span className="font-semibold text-fg">{F.preview}</span> · {F.previewHint}
      </figcaption>
      <div
        inert
        aria-hidden="true"
        dir={locale === "ar" ? "rtl" : "ltr"}
        lang={locale}
        className={`rounded-2xl border border-line bg-subtle p-3 shadow-xs ${draft.enabled ? "" : "opacity-60"}`}
      >
        <div className="space-y-2.5 rounded-xl border border-line bg-surface p-3">
          <p dir="auto" className="text-sm text-fg">
            {localLine(draft.intro, locale, W.leadIntro)}
          </p>
          {draft.fields.map((field) => (
            <div key={field.key}>
              <p className="mb-1 text-xs font-medium text-fg">
                <bdi>{visitorLabel(field, locale, defaultLabel)}</bdi>
                {field.required ? <span className="text-muted"> ({W.leadRequired})</span> : null}
              </p>
              <div className={`rounded-md border border-line-strong bg-surface ${field.kind === "text" ? "h-12" : "h-7"}`} />
            </div>
          ))}
          <div className="flex gap-2 pt-1">
            <span className="rounded-md bg-accent px-3 py-1 text-xs font-medium text-white">{W.send}</span>
            {dismissable ? <span className="rounded-md border border-line-strong px-3 py-1 text-xs text-fg">{W.leadNotNow}</span> : null}
          </div>
        </div>
      </div>
      {!draft.enabled ? <p className="text-xs text-muted">{F.previewOff}</p> : null}
    </figure>
  );
}
