import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { visitorDeletion, type PublicAssistantBody } from "../../contract";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { getAssistantHub } from "../../worker/durable-objects/stubs";
import { LeadStore } from "../../worker/assistant/lead-store";
import { VisitorStore } from "../../worker/assistant/visitor-store";
import { call, json, tableCounts } from "./helpers";
import { setLeadForm } from "./lead-helpers";
import { widgetAssistant } from "./widget-helpers";

/** Helpers of tests/integration/privacy.*.test.ts: deletions, a visitor's export, retention. */

export const DAY_MS = 24 * 60 * 60 * 1000;

export const chatPath = (assistantId: string, sessionId: string) => `/api/public-assistants/${assistantId}/chats/${encodeURIComponent(sessionId)}`;
export const visitorPath = (assistantId: string, visitorId: string) => `/api/public-assistants/${assistantId}/visitors/${encodeURIComponent(visitorId)}`;
export const exportPath = (assistantId: string, visitorId: string) => `${visitorPath(assistantId, visitorId)}/export`;

/** An owner and assistant with attachments allowed and the lead form on (name and e-mail). */
export async function privacyAssistant(body: PublicAssistantBody = {}) {
  const owner = await widgetAssistant({ ...body, config: { allowAttachments: true, maxMessagesPerSession: 50, ...body.config } });
  await setLeadForm(owner.token, owner.assistant._id, { enabled: true });
  return { ...owner, assistantId: owner.assistant._id };
}

/** DELETE …/visitors/:visitorId expecting 200, parsed. */
export async function deleteVisitor(token: string, assistantId: string, visitorId: string) {
  const res = await call(visitorPath(assistantId, visitorId), { token, method: "DELETE" });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, visitorDeletion);
}

const hub = (assistantId: string) => getAssistantHub(env, assistantId);

/** Runs `work` in the assistant's object once it is open as any call opens it (schema, copy, legacy move). */
export function inHub<T>(assistantId: string, work: (storage: DurableObjectStorage, instance: AssistantHub) => T | Promise<T>): Promise<T> {
  return runInDurableObject(hub(assistantId), async (instance, state) => {
    await (instance as unknown as AssistantHub).history().count();
    return work(state.storage, instance as unknown as AssistantHub);
  });
}

/** Rows of every table a conversation leaves something in (all sessions' when no id is given). */
export function rowsAbout(assistantId: string, sessionIds: readonly string[]) {
  return inHub(assistantId, (storage) => {
    const list = JSON.stringify(sessionIds);
    const count = (sql: string) => Number(storage.sql.exec(sql, list).one().n);
    const ids = "(SELECT value FROM json_each(?))";
    return {
      sessions: count(`SELECT count(*) AS n FROM visitor_sessions WHERE id IN ${ids}`),
      messages: count(`SELECT count(*) AS n FROM visitor_messages WHERE session_id IN ${ids}`),
      leads: count(`SELECT count(*) AS n FROM leads WHERE session_id IN ${ids}`),
      watchers: count(`SELECT count(*) AS n FROM inbox_watchers WHERE session_id IN ${ids}`),
      firstReplies: count(`SELECT count(*) AS n FROM insight_first_replies WHERE session_id IN ${ids}`),
      questionLinks: count(
        `SELECT count(*) AS n FROM insight_questions q
         WHERE EXISTS (SELECT 1 FROM json_each(q.session_ids) j WHERE j.value IN (SELECT value FROM json_each(?1)))
            OR EXISTS (SELECT 1 FROM json_each(q.gap_session_ids) j WHERE j.value IN (SELECT value FROM json_each(?1)))`,
      ),
      webhookEvents: count(`SELECT count(*) AS n FROM webhook_events WHERE json_extract(body, '$.data.sessionId') IN ${ids}`),
      webhookOutbox: count(`SELECT count(*) AS n FROM webhook_outbox WHERE json_extract(body, '$.data.sessionId') IN ${ids}`),
    };
  });
}

/** Whole-table counts of the object (what a deletion must not touch). */
export const tablesOf = (assistantId: string) =>
  inHub(assistantId, (storage) =>
    tableCounts(storage, { sessions: "visitor_sessions", messages: "visitor_messages", leads: "leads", days: "insight_days", questions: "insight_questions", questionDays: "insight_question_days" }),
  );

/**
 * `count` conversations written straight into the object (one visitor message each, its answer,
 * and with `leads` a lead), their activity `ageDays` ago; `sub`: a signed visitor's. Returns their ids.
 */
export function seedConversations(assistantId: string, count: number, options: { ageDays: number; sub?: string; leads?: boolean; prefix?: string }) {
  return inHub(assistantId, (storage) => {
    const store = new VisitorStore(storage, assistantId);
    const leads = new LeadStore(storage);
    const at = Date.now() - options.ageDays * DAY_MS;
    const ids: string[] = [];
    {
      for (let i = 0; i < count; i++) {
        const id = `${options.prefix ?? "seed"}-${crypto.randomUUID()}`;
        ids.push(id);
        store.createSession({ id, referrer: "https://shop.example/help", origin: "https://shop.example", userAgent: "test", locale: "en", startedAt: at }, options.sub ? { id: options.sub, name: "Amina" } : undefined);
        store.saveMessage({ sessionId: id, role: "user", content: `Question ${i}`, files: [{ name: "invoice.pdf" }], sources: [], at });
        store.saveMessage({ sessionId: id, role: "assistant", content: `Answer ${i}`, files: [], sources: [], at: at + 1 });
        if (options.leads) {
          leads.save({
            sessionId: id,
            at: at + 2,
            values: [{ key: "email", kind: "email", label: "E-mail", value: `v${i}@example.com` }],
            referrer: "https://shop.example/help",
            locale: "en",
            ...(options.sub ? { visitor: { id: options.sub, name: "Amina" } } : {}),
          });
        }
      }
    }
    return ids;
  });
}

/** Moves a conversation's activity (its start, messages, last message) `days` into the past. */
export const ageConversation = (assistantId: string, sessionId: string, days: number) =>
  inHub(assistantId, (storage) => {
    const by = days * DAY_MS;
    storage.sql.exec("UPDATE visitor_sessions SET started_at = started_at - ?, last_message_at = last_message_at - ? WHERE id = ?", by, by, sessionId);
    storage.sql.exec("UPDATE visitor_messages SET created_at = created_at - ? WHERE session_id = ?", by, sessionId);
  });

/** When the retention pass is scheduled (null: it is not), and the storage alarm. */
export const retentionSchedule = (assistantId: string) =>
  runInDurableObject(hub(assistantId), async (_i, state) => ({ at: state.storage.kv.get<number>("alarm:retention") ?? null, alarm: await state.storage.getAlarm() }));

/** Fires the assistant's storage alarm now (its earliest named job runs, whatever the clock). */
export const fireAlarm = (assistantId: string) => runDurableObjectAlarm(hub(assistantId));
