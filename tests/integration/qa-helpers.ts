import { expect } from "vitest";
import { qaResponse, type QaBody } from "../../contract";
import { call, json } from "./helpers";

/** POST …/qa as the owner (201 expected), parsed with the contract. */
export async function addQa(token: string, assistantId: string, body: QaBody) {
  const res = await call(`/api/public-assistants/${assistantId}/qa`, { token, method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res, qaResponse)).qa;
}

/** POST …/qa/import with `csv` as the multipart `file`. */
export function importCsv(token: string, assistantId: string, csv: string | Blob, name = "pairs.csv") {
  const form = new FormData();
  form.append("file", typeof csv === "string" ? new File([csv], name, { type: "text/csv" }) : new File([csv], name, { type: "text/csv" }));
  return call(`/api/public-assistants/${assistantId}/qa/import`, { token, method: "POST", body: form });
}
