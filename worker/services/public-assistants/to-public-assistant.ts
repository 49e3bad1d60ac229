import {
  assistantConfigSchema,
  assistantIntegrationSchema,
  publicAssistantDefaults,
  type AssistantConfig,
  type AssistantIntegration,
  type KnowledgeFile,
  type PublicAssistant,
  type PublicAssistantChanges,
} from "../../../contract";
import { sql } from "drizzle-orm";
import { publicAssistants, type knowledgeFiles } from "../../db/schema";

export type PublicAssistantRow = typeof publicAssistants.$inferSelect;
export type KnowledgeFileRow = typeof knowledgeFiles.$inferSelect;

/**
 * An assistant as the worker uses it (the widget, the chat): its settings parsed, no key material.
 * What `findAssistantByKey` returns.
 */
export interface PublicAssistantRecord {
  id: string;
  userId: string;
  name: string;
  description: string;
  isActive: boolean;
  config: AssistantConfig;
  integration: AssistantIntegration;
  instructions: string;
  /** Empty: any site may embed the widget. */
  allowedOrigins: string[];
  showSources: boolean;
  createdAt: number;
  updatedAt: number;
}

const defaultConfig = (): AssistantConfig => structuredClone(publicAssistantDefaults.config) as AssistantConfig;
const defaultIntegration = (): AssistantIntegration => ({ ...publicAssistantDefaults.integration });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The fields of `value` that are not undefined (an update merges only what it names). */
function definedFields<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `changes` merged over `base`, field by field (customization too); undefined fields keep `base`. */
export function mergeConfig(base: AssistantConfig, changes: PublicAssistantChanges["config"]): AssistantConfig {
  return {
    maxMessagesPerSession: changes?.maxMessagesPerSession ?? base.maxMessagesPerSession,
    dailyLimit: changes?.dailyLimit ?? base.dailyLimit,
    allowAttachments: changes?.allowAttachments ?? base.allowAttachments,
    // null is a value here (no budget): only undefined keeps the base.
    monthlyBudget: changes?.monthlyBudget !== undefined ? changes.monthlyBudget : base.monthlyBudget,
    budgetAction: changes?.budgetAction ?? base.budgetAction,
    botDefence: changes?.botDefence ?? base.botDefence,
    visitorLimitScope: changes?.visitorLimitScope ?? base.visitorLimitScope,
    qaStrictness: changes?.qaStrictness ?? base.qaStrictness,
    handoff: { ...base.handoff, ...definedFields(changes?.handoff) },
    // Changed only by PUT …/lead-form (services/leads), never by the assistant's own update.
    leadForm: base.leadForm,
    // Written by the server only (services/public-assistants/onboarding.ts).
    onboarding: base.onboarding,
    retentionDays: changes?.retentionDays !== undefined ? changes.retentionDays : base.retentionDays,
    retentionIncludesLeads: changes?.retentionIncludesLeads ?? base.retentionIncludesLeads,
    customization: {
      primaryColor: changes?.customization?.primaryColor ?? base.customization.primaryColor,
      headerText: changes?.customization?.headerText ?? base.customization.headerText,
      welcomeMessage: changes?.customization?.welcomeMessage ?? base.customization.welcomeMessage,
      starterQuestions: changes?.customization?.starterQuestions ?? base.customization.starterQuestions,
      contactLine: changes?.customization?.contactLine ?? base.customization.contactLine,
      theme: changes?.customization?.theme ?? base.customization.theme,
      language: changes?.customization?.language ?? base.customization.language,
      availabilityLine: changes?.customization?.availabilityLine ?? base.customization.availabilityLine,
      // Set by the avatar upload, never by the assistant's own update.
      avatarUrl: base.customization.avatarUrl,
      privacyNotice: changes?.customization?.privacyNotice ?? base.customization.privacyNotice,
      privacyUrl: changes?.customization?.privacyUrl ?? base.customization.privacyUrl,
    },
  };
}

export function mergeIntegration(base: AssistantIntegration, changes: PublicAssistantChanges["integration"]): AssistantIntegration {
  return {
    widgetPosition: changes?.widgetPosition ?? base.widgetPosition,
    widgetSize: changes?.widgetSize ?? base.widgetSize,
  };
}

/** Stored JSON → config; a damaged or older value falls back to the defaults rather than failing the list. */
export function readConfig(json: string): AssistantConfig {
  const parsed = assistantConfigSchema.safeParse(parseJson(json));
  return parsed.success ? parsed.data : defaultConfig();
}

export function readIntegration(json: string): AssistantIntegration {
  const parsed = assistantIntegrationSchema.safeParse(parseJson(json));
  return parsed.success ? parsed.data : defaultIntegration();
}

function readOrigins(json: string): string[] {
  const value = parseJson(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export { defaultConfig, defaultIntegration };

/**
 * `updated_at` for an owner's UPDATE of `public_assistants`: now, and always past the stored
 * value (another machine's clock may be ahead), so a newer row always has a greater stamp: the
 * assistant's object keeps the copy with the greatest one (assistant/assistant-copy.ts).
 */
export const nextUpdatedAt = () => sql<number>`max(${Date.now()}, ${publicAssistants.updatedAt} + 1)`;

export function toPublicAssistantRecord(row: PublicAssistantRow): PublicAssistantRecord {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    description: row.description,
    isActive: row.isActive,
    config: readConfig(row.config),
    integration: readIntegration(row.integration),
    instructions: row.instructions,
    allowedOrigins: readOrigins(row.allowedOrigins),
    showSources: row.showSources,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toKnowledgeFile(
  row: Pick<KnowledgeFileRow, "id" | "name" | "size" | "uploadedAt" | "status" | "error" | "chunkCount"> & { kind?: "file" | "text" },
): KnowledgeFile {
  return {
    _id: row.id,
    name: row.name,
    size: row.size,
    uploadedAt: row.uploadedAt,
    status: row.status,
    error: row.error ?? null,
    chunkCount: row.chunkCount,
    // Only a snippet says what it is: an uploaded file's shape is as it always was.
    ...(row.kind === "text" ? { kind: "text" as const } : {}),
  };
}

/** The owner's view: masked key, files newest first, session count. */
export function toPublicAssistant(row: PublicAssistantRow, files: KnowledgeFile[], totalSessions: number): PublicAssistant {
  const record = toPublicAssistantRecord(row);
  return {
    _id: record.id,
    name: record.name,
    description: record.description,
    isActive: record.isActive,
    apiKey: row.apiKeyMasked,
    config: record.config,
    integration: record.integration,
    instructions: record.instructions,
    allowedOrigins: record.allowedOrigins,
    showSources: record.showSources,
    files,
    stats: { totalSessions },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
