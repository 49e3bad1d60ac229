import { createServer } from "node:http";
import type { APIRequestContext } from "@playwright/test";
import { apiKeyResponse, publicAssistantResponse, type PublicAssistantBody } from "../../contract";
import { expect } from "./fixtures";
import { freePort } from "./server";

/**
 * A website on ANOTHER origin than Tala (127.0.0.1 on a free port), where the widget's tests paste
 * the snippet: `render` writes the page for each GET from its query string.
 */
export async function startHostSite(render: (query: URLSearchParams) => string): Promise<{ origin: string; close: () => Promise<void> }> {
  const port = await freePort();
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(render(new URL(req.url ?? "/", "http://host").searchParams));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A query value as it may go into the test page's attributes (origins, keys, tokens). */
export const attrValue = (v: string | null) => (v ?? "").replace(/[^\w:/.-]/g, "");

/** A new public assistant of the owner `headers` sign in, and its full publishable key. */
export async function createAssistantWithKey(request: APIRequestContext, headers: Record<string, string>, body: PublicAssistantBody) {
  const res = await request.post("/api/public-assistants", { headers, data: body });
  expect(res.status()).toBe(201);
  const { assistant } = publicAssistantResponse.parse(await res.json());
  const key = apiKeyResponse.parse(await (await request.get(`/api/public-assistants/${assistant._id}/raw-api-key`, { headers })).json()).apiKey;
  return { id: assistant._id, key };
}
