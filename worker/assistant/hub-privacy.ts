import { privacyLimits as L, widgetSocketClose } from "../../contract";
import { getWidgetRoom } from "../durable-objects/stubs";
import { AssistantCopyStore } from "./assistant-copy";
import type { HubCore } from "./hub-core";
import { addCounts, noDeletion, PrivacyStore, type DeletionCounts } from "./privacy-store";

/**
 * Privacy in the assistant's own object: the retention pass (its daily named alarm `retention`),
 * and what follows a deletion (the deleted conversations' open widget sockets close, the inbox's
 * in-memory leases are read again). The rows go in privacy-store.ts. No import from
 * `cloudflare:workers`.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** While old conversations remain after a run's batches, the next run comes this soon. */
export const RETENTION_REARM_MS = 30_000;

/**
 * When the daily pass runs next after `now`: at `retentionHourUtc` plus this assistant's own
 * offset (under an hour, from its id), so assistants do not all run at the same second.
 */
export function nextRetentionAt(assistantId: string, now: number): number {
  let hash = 0;
  for (let i = 0; i < assistantId.length; i++) hash = (hash * 31 + assistantId.charCodeAt(i)) >>> 0;
  const offset = hash % HOUR_MS;
  const today = Math.floor(now / DAY_MS) * DAY_MS + L.retentionHourUtc * HOUR_MS + offset;
  return today > now ? today : today + DAY_MS;
}

/**
 * After the deletion of these conversations: their widget sockets (and event streams) close with
 * `conversationDeleted` (the widget offers a new conversation) and the room is forgotten once
 * nothing is open there; the inbox's leases are read again from storage. Never throws (logged).
 */
export async function afterDeletion(core: HubCore, ids: readonly string[]): Promise<void> {
  core.handoff.watchers.forget();
  try {
    const open = await core.sockets.openIds();
    const rooms = ids.filter((id) => open.has(id));
    const results = await Promise.allSettled(rooms.map((id) => getWidgetRoom(core.env, id).closeAll(widgetSocketClose.conversationDeleted)));
    for (const [i, result] of results.entries()) {
      if (result.status === "fulfilled" && result.value.open === 0) await core.sockets.unregister(rooms[i]!);
      else if (result.status === "rejected") console.error(JSON.stringify({ event: "deleted-conversation-socket-close-failed", sessionId: rooms[i], error: String(result.reason) }));
    }
  } catch (error) {
    console.error(JSON.stringify({ event: "deleted-conversation-socket-close-failed", assistantId: core.assistantId, error: String(error) }));
  }
}

/**
 * The owner changed the assistant (or the object started): retention on and no pass scheduled
 * schedules the next daily one; off cancels it. A pass under way (re-armed soon) is left alone.
 * Reads the stored copy only (never D1: this runs inside an owner's write or at start).
 */
export async function retentionSettingsChanged(core: HubCore, now = Date.now()): Promise<void> {
  if (core.gate.erased()) return;
  const copy = new AssistantCopyStore(core.storage).read();
  const days = copy && copy !== "missing" ? (copy.record.config.retentionDays ?? null) : null;
  if (days === null) await core.alarms.cancel("retention");
  else if (core.alarms.scheduled("retention") === null) await core.alarms.schedule("retention", nextRetentionAt(core.assistantId, now));
}

/**
 * The `retention` alarm job: conversations whose last activity is older than the assistant's
 * `retentionDays` are deleted, `retentionBatchSessions` at a time (one transaction each, the
 * object free for visitors between batches), at most `retentionBatchesPerRun` batches; then the
 * next run comes in `RETENTION_REARM_MS` while more remain, else tomorrow. Their leads go only with
 * `retentionIncludesLeads`. A conversation being answered is never old: its visitor's message was
 * saved when the turn began, which made it the conversation's last activity. Retention turned off
 * (or the assistant deleted): nothing runs and nothing is scheduled.
 */
export async function retentionPass(core: HubCore, now: number): Promise<DeletionCounts> {
  const opened = await core.open();
  const days = opened?.assistant.record.config.retentionDays ?? null;
  if (!opened || days === null) return noDeletion();
  const leads = opened.assistant.record.config.retentionIncludesLeads === true;
  const cutoff = now - days * DAY_MS;
  const store = new PrivacyStore(core.storage);
  let total = noDeletion();
  let more = false;
  for (let batch = 0; batch < L.retentionBatchesPerRun; batch++) {
    if (batch > 0) await yieldToOthers();
    const ids = store.inactiveBefore(cutoff, L.retentionBatchSessions);
    if (ids.length) {
      total = addCounts(total, store.deleteConversations(ids, { leads }));
      await afterDeletion(core, ids);
    }
    more = ids.length === L.retentionBatchSessions;
    if (!more) break;
  }
  await core.alarms.schedule("retention", more ? Date.now() + RETENTION_REARM_MS : nextRetentionAt(core.assistantId, now), "always");
  if (total.deletedConversations) console.log(JSON.stringify({ event: "retention-pass", assistantId: core.assistantId, ...total, more }));
  return total;
}

/** Lets the object take the events waiting (a visitor's turn) between two batches. */
const yieldToOthers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
