import { expect } from "vitest";
import {
  apiKeyResponse,
  leadFormResponse,
  leadSubmitResponse,
  leadsResponse,
  widgetApiPaths,
  widgetConfigResponse,
  type LeadFormInput,
  type PublicAssistantBody,
} from "../../contract";
import { call, json, randomIp, registerUser } from "./helpers";
import { createAssistant, uploadFiles } from "./public-assistants-helpers";
import { REFUND_DOC, startSession, widgetCall } from "./widget-helpers";

/** Helpers of tests/integration/leads.*.test.ts: the owner's lead form, a visitor's lead, the Leads list and export. */

export const leadFormPath = (assistantId: string) => `/api/public-assistants/${assistantId}/lead-form`;
export const leadsPath = (assistantId: string, query = "") => `/api/public-assistants/${assistantId}/leads${query}`;
export const exportPath = (assistantId: string) => `/api/public-assistants/${assistantId}/leads/export`;

/** A fresh owner (with their address) and assistant, its full key; the refund document uploaded when `upload`. */
export async function leadAssistant(body: PublicAssistantBody = {}, options: { upload?: boolean } = {}) {
  const { token, email } = await registerUser();
  const assistant = await createAssistant(token, { name: "Shop helper", ...body });
  if (options.upload) {
    const res = await uploadFiles(token, assistant._id, [{ ...REFUND_DOC, type: "text/markdown" }]);
    expect(res.status, await res.clone().text()).toBe(201);
  }
  const { apiKey } = await json(await call(`/api/public-assistants/${assistant._id}/raw-api-key`, { token }), apiKeyResponse);
  return { token, ownerEmail: email, assistantId: assistant._id, key: apiKey };
}

export const putLeadForm = (token: string, assistantId: string, body: unknown) => call(leadFormPath(assistantId), { token, method: "PUT", json: body });

/** PUT …/lead-form expecting 200; the form saved. */
export async function setLeadForm(token: string, assistantId: string, body: LeadFormInput) {
  const res = await putLeadForm(token, assistantId, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await json(res, leadFormResponse)).leadForm;
}

/** An assistant whose lead form is on (with `form` over the defaults), and one visitor session. */
export async function leadConversation(form: LeadFormInput = {}, options: { upload?: boolean; body?: PublicAssistantBody } = {}) {
  const owner = await leadAssistant(options.body, options);
  await setLeadForm(owner.token, owner.assistantId, { enabled: true, ...form });
  const { sessionId } = await startSession(owner.key);
  return { ...owner, sessionId };
}

/** The visitor's POST …/lead with the key (a fresh address unless `ip`). */
export const submitLead = (key: string | undefined, sessionId: string, body: unknown, init: { ip?: string; headers?: Record<string, string>; origin?: string } = {}) =>
  widgetCall(widgetApiPaths.lead(sessionId), { key, ip: init.ip ?? randomIp(), headers: init.headers, origin: init.origin, json: body });

/** POST …/lead expecting 201; the lead's id and time. */
export async function submittedLead(key: string, sessionId: string, fields: Record<string, unknown>, trigger?: string, headers?: Record<string, string>) {
  const res = await submitLead(key, sessionId, { fields, ...(trigger ? { trigger } : {}) }, { headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res, leadSubmitResponse)).lead;
}

/** GET …/leads expecting 200, parsed. */
export async function leadsOf(token: string, assistantId: string, query = "") {
  const res = await call(leadsPath(assistantId, query), { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, leadsResponse);
}

/** GET /api/widget/config, parsed. */
export async function widgetConfig(key: string) {
  const res = await widgetCall("/api/widget/config", { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res, widgetConfigResponse);
}

/** The CSV cells of a text: quoted cells, doubled quotes, CRLF rows (as csvCell writes them). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') throw new Error(`unquoted cell at ${i}`);
    let cell = "";
    i++;
    for (;;) {
      if (text[i] === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (text[i] === '"') {
        i++;
        break;
      } else {
        cell += text[i];
        i++;
      }
    }
    row.push(cell);
    if (text[i] === ",") i++;
    else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < text.length) throw new Error(`unexpected ${text[i]} at ${i}`);
  }
  if (row.length) rows.push(row);
  return rows;
}
