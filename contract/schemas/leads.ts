/**
 * Lead capture: the owner's form, the widget showing it, the visitor's submission, the owner's
 * Leads tab. Limits: `leadLimits`; messages: `leadMessages`.
 *
 * Owner (signed in, the assistant's owner; another owner's ids answer 404):
 *   GET /api/public-assistants/{id}/lead-form                 → leadFormResponse (the defaults, off, when never set)
 *   PUT /api/public-assistants/{id}/lead-form  leadFormInput  → leadFormResponse (stored in the assistant's config)
 *   GET /api/public-assistants/{id}/leads?page=&q=            → leadsResponse (newest first; q searches every value)
 *   GET /api/public-assistants/{id}/leads/export              → text/csv attachment leads-{id}.csv (formula-safe cells)
 *
 * Visitor (publishable key, and X-Visitor-Token for a signed visitor; only their own session):
 *   POST /api/widget/sessions/{sessionId}/lead  leadSubmitBody → 201 leadSubmitResponse
 * The widget reads the form from GET /api/widget/config (`assistant.leadForm`, absent when off), and
 * an answer carries `offersLeadForm` when the visitor asked to be contacted or the assistant did
 * not know, and the owner chose to show the form then.
 */
import { z } from "zod";
import { leadLimits as L, publicAssistantDefaults } from "../constants";
import { leadMessages as M } from "../messages";
import { cleanText } from "../text";

const locales = ["en", "fr", "ar"] as const;
export type LeadLocale = (typeof locales)[number];

const asIs = (value: unknown): unknown => value;
type LocaleText = ReturnType<typeof z.preprocess<unknown, z.ZodString>>;
/** A text per locale; `oneLine` (a label) has its control and bidirectional characters stripped (`cleanText`) before it is trimmed. */
const localText = (max: number, tooLong: string, oneLine = false, keepEmpty = false) =>
  z
    .object(
      Object.fromEntries(
        locales.map((l) => {
          const text = z.string({ error: tooLong }).trim().max(max, { error: tooLong });
          return [l, z.preprocess(oneLine ? cleanText : asIs, text).optional()];
        }),
      ) as Record<LeadLocale, z.ZodOptional<LocaleText>>,
      { error: tooLong },
    )
    // An empty text is dropped, or kept (`keepEmpty`: the form's lines, where "" clears that language's line on PUT).
    .transform((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v || (keepEmpty && v === ""))) as Partial<Record<LeadLocale, string>>);

/** A text in the widget's locales; a missing locale falls back to the widget's own default (widget-strings). */
export const leadLocalTextSchema = z.object({ en: z.string().optional(), fr: z.string().optional(), ar: z.string().optional() });
export type LeadLocalText = z.infer<typeof leadLocalTextSchema>;

export const leadFieldSchema = z.object({
  key: z.string(),
  kind: z.enum(L.fieldKinds),
  /** Empty for a known kind: the widget's label for it in the visitor's language. */
  label: leadLocalTextSchema,
  required: z.boolean(),
});
export type LeadField = z.infer<typeof leadFieldSchema>;

export const leadFormSchema = z.object({
  enabled: z.boolean(),
  fields: z.array(leadFieldSchema),
  intro: leadLocalTextSchema,
  thanks: leadLocalTextSchema,
  /** When it shows (any that apply): before the first message, after N visitor messages, when asked, when the assistant did not know. */
  beforeFirstMessage: z.enum(L.beforeFirstMessageModes),
  afterMessages: z.number().int(),
  whenAsked: z.boolean(),
  whenUnanswered: z.boolean(),
  /** E-mail the owner for each new lead. */
  emailOwner: z.boolean(),
});
export type LeadForm = z.infer<typeof leadFormSchema>;

/** A form never set: off, name and e-mail (e-mail required), shown when asked or unanswered (publicAssistantDefaults). */
export const defaultLeadForm: LeadForm = { ...publicAssistantDefaults.config.leadForm, fields: [...publicAssistantDefaults.config.leadForm.fields] };

const fieldInput = z
  .object(
    {
      key: z.string({ error: M.fieldKeyInvalid }).regex(L.keyPattern, { error: M.fieldKeyInvalid }),
      kind: z.enum(L.fieldKinds, { error: M.fieldKindInvalid(L.fieldKinds) }),
      label: localText(L.maxLabelChars, M.labelTooLong(L.maxLabelChars), true).optional().default({}),
      required: z.boolean({ error: M.mustBeBoolean("required") }).optional().default(false),
    },
    { error: M.fieldKindInvalid(L.fieldKinds) },
  )
  .superRefine((f, ctx) => {
    const matches = f.kind === "text" ? /^text[1-6]$/.test(f.key) : f.key === f.kind;
    if (!matches) ctx.addIssue({ code: "custom", message: M.fieldKeyInvalid, path: ["key"] });
    if (f.kind === "text" && !Object.values(f.label).some(Boolean)) ctx.addIssue({ code: "custom", message: M.labelRequired, path: ["label"] });
  });

/** PUT …/lead-form: the whole form (every field optional: what is missing keeps its current value). */
export const leadFormInput = z.object(
  {
    enabled: z.boolean({ error: M.mustBeBoolean("enabled") }).optional(),
    fields: z
      .array(fieldInput, { error: M.fieldsRequired })
      .min(1, { error: M.fieldsRequired })
      .max(L.maxFields, { error: M.tooManyFields(L.maxFields) })
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        for (const f of list) {
          if (seen.has(f.key)) ctx.addIssue({ code: "custom", message: M.duplicateField(f.key) });
          seen.add(f.key);
        }
      })
      .optional(),
    intro: localText(L.maxIntroChars, M.introTooLong(L.maxIntroChars), false, true).optional(),
    thanks: localText(L.maxThanksChars, M.thanksTooLong(L.maxThanksChars), false, true).optional(),
    beforeFirstMessage: z.enum(L.beforeFirstMessageModes, { error: M.beforeFirstMessageInvalid(L.beforeFirstMessageModes) }).optional(),
    afterMessages: z
      .number({ error: M.afterMessagesRange(L.afterMessages.min, L.afterMessages.max) })
      .int({ error: M.afterMessagesRange(L.afterMessages.min, L.afterMessages.max) })
      .min(L.afterMessages.min, { error: M.afterMessagesRange(L.afterMessages.min, L.afterMessages.max) })
      .max(L.afterMessages.max, { error: M.afterMessagesRange(L.afterMessages.min, L.afterMessages.max) })
      .optional(),
    whenAsked: z.boolean({ error: M.mustBeBoolean("whenAsked") }).optional(),
    whenUnanswered: z.boolean({ error: M.mustBeBoolean("whenUnanswered") }).optional(),
    emailOwner: z.boolean({ error: M.mustBeBoolean("emailOwner") }).optional(),
  },
  { error: M.formMustBeObject },
);
export type LeadFormInput = z.input<typeof leadFormInput>;

export const leadFormResponse = z.object({ leadForm: leadFormSchema });
export type LeadFormResponse = z.infer<typeof leadFormResponse>;

/**
 * POST /api/widget/sessions/{sessionId}/lead. Values are text, checked against the form the
 * assistant has now (unknown keys, missing required ones, lengths, e-mail and phone refused with
 * the field's label named); `trigger` says what showed the form (for the owner's context).
 */
export const leadTriggers = ["before-first-message", "after-messages", "asked", "unanswered", "handoff"] as const;
export type LeadTrigger = (typeof leadTriggers)[number];

/**
 * A submitted value as it travels on: text (or null) as sent; anything else (a number, a list, an
 * object nested however deep) as `false`, which the check against the form refuses naming the
 * field, so a hostile structure never goes further than the parse.
 */
const submittedValue = z.unknown().transform((value): string | null | false => (typeof value === "string" || value === null ? value : false));

export const leadSubmitBody = z.object({
  fields: z.record(z.string(), submittedValue, { error: M.fieldsMustBeObject }),
  trigger: z.enum(leadTriggers).optional(),
});
export type LeadSubmitBody = z.input<typeof leadSubmitBody>;

export const leadSubmitResponse = z.object({ lead: z.object({ id: z.string(), createdAt: z.number() }) });
export type LeadSubmitResponse = z.infer<typeof leadSubmitResponse>;

/** A lead as the owner sees it: each value with the label it was asked under (English label when the owner gave none, else the kind's). */
export const leadSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  createdAt: z.number(),
  values: z.array(z.object({ key: z.string(), kind: z.enum(L.fieldKinds), label: z.string(), value: z.string() })),
  trigger: z.enum(leadTriggers).optional(),
  /** The conversation's context: its page and locale, and the signed visitor when there was one. */
  referrer: z.string(),
  locale: z.string(),
  visitor: z.object({ id: z.string(), name: z.string().optional(), email: z.string().optional() }).optional(),
});
export type Lead = z.infer<typeof leadSchema>;

export const leadsQuery = z.object({
  page: z.coerce.number({ error: M.pageInvalid }).int({ error: M.pageInvalid }).min(1, { error: M.pageInvalid }).max(L.maxPage, { error: M.pageInvalid }).default(1),
  q: z.string().trim().max(L.maxQueryChars, { error: M.searchTooLong(L.maxQueryChars) }).optional().default(""),
});
export type LeadsQuery = z.input<typeof leadsQuery>;

export const leadsResponse = z.object({
  leads: z.array(leadSchema),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type LeadsResponse = z.infer<typeof leadsResponse>;

/** The widget's copy of the form (GET /api/widget/config `assistant.leadForm`): only what it shows. */
export const widgetLeadFormSchema = leadFormSchema.omit({ emailOwner: true, enabled: true });
export type WidgetLeadForm = z.infer<typeof widgetLeadFormSchema>;

/**
 * Neutralise a CSV cell against formula injection (OWASP): a value beginning with =, +, -, @, tab
 * or carriage return gets a leading apostrophe; every cell is quoted, quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
