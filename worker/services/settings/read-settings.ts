import type { UserSettings } from "../../../contract";

/** users.settings is a JSON object; anything unreadable reads as the defaults. */
export function readSettings(json: string | null | undefined): UserSettings {
  try {
    const value: unknown = JSON.parse(json ?? "{}");
    const model = value && typeof value === "object" ? (value as { model?: unknown }).model : undefined;
    return { model: typeof model === "string" && model.length > 0 ? model : null };
  } catch {
    return { model: null };
  }
}
