/**
 * The assistant page's address (`appRoutes.publicAssistant`): `?tab=` names the tab shown (the
 * default one when absent or unknown) and, on the History and Inbox tabs, `&session=` the conversation open.
 * Pure, unit-tested.
 */
import { appRoutes } from "../../../../../contract";

/** The tabs whose address may name an open conversation. */
const sessionTabs = new Set<string>(["history", "inbox"]);

export interface AssistantPageParams<K extends string> {
  tab: K;
  /** The visitor session whose conversation is open (History and Inbox tabs only). */
  session: string | null;
}

export function readAssistantPageParams<K extends string>(search: string, keys: readonly K[], fallback: K): AssistantPageParams<K> {
  const params = new URLSearchParams(search);
  const asked = params.get("tab");
  const tab = keys.find((k) => k === asked) ?? fallback;
  return { tab, session: sessionTabs.has(tab) ? params.get("session") || null : null };
}

export function assistantPageHref(id: string, params: { tab: string; session?: string | null }): string {
  const base = appRoutes.publicAssistant(id, params.tab);
  return params.session ? `${base}&session=${encodeURIComponent(params.session)}` : base;
}
