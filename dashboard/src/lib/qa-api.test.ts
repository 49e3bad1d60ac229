import { describe, expect, it, vi } from "vitest";
import { ApiError, createApiClient } from "./api";
import { attachmentName } from "./download";
import { createQaApi, findPair } from "./qa-api";

const pair = (id: string, question = `Question ${id}`) => ({ id, question, variants: [] as string[], answer: "A", mode: "exact" as const, uses: 0, createdAt: 1, updatedAt: 2 });

function setup(body: unknown, status = 200, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async () => new Response(typeof body === "string" ? body : body === undefined ? null : JSON.stringify(body), { status, headers }));
  const client = createApiClient({ fetch, authorization: () => "Token t", sleep: async () => {} });
  return { fetch, api: createQaApi(client, "/api", fetch) };
}
const call = (fetch: ReturnType<typeof setup>["fetch"], i = 0) => fetch.mock.calls[i] as unknown as [string, RequestInit];

describe("curated answers API", () => {
  it("lists a page, with the search only when there is one", async () => {
    const { fetch, api } = setup({ qa: [pair("q1")], total: 1, page: 2, totalPages: 2 });
    const list = await api.list("pa 1", "  return & refund ", 2);
    expect(list.qa[0]!.id).toBe("q1");
    expect(call(fetch)[0]).toBe("/api/public-assistants/pa%201/qa?page=2&q=return+%26+refund");
    await api.list("pa1", " ", 1);
    expect(call(fetch, 1)[0]).toBe("/api/public-assistants/pa1/qa?page=1");
  });

  it("refuses a list that does not match the contract", async () => {
    const { api } = setup({ qa: [{ id: 1 }], total: 1 });
    await expect(api.list("pa1", "", 1)).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
  });

  it("creates, patches and deletes a pair at its own address", async () => {
    const created = setup({ qa: pair("q/1") }, 201);
    expect((await created.api.create("pa1", { question: "Q", answer: "A", mode: "exact" })).id).toBe("q/1");
    expect(call(created.fetch)[1].method).toBe("POST");
    const patched = setup({ qa: pair("q/1") });
    await patched.api.update("pa1", "q/1", { answer: "B" });
    expect(call(patched.fetch)[0]).toBe("/api/public-assistants/pa1/qa/q%2F1");
    expect(call(patched.fetch)[1].method).toBe("PATCH");
    const removed = setup(undefined, 204);
    await removed.api.remove("pa1", "q1");
    expect(call(removed.fetch)[1].method).toBe("DELETE");
  });

  it("hands over a duplicate's 409 with the server's message", async () => {
    const { api } = setup({ error: 'This question is already answered by the pair "How do I return an item?".', code: "CONFLICT", requestId: "r" }, 409);
    const err = await api.create("pa1", { question: "Q", answer: "A" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).message).toContain("How do I return an item?");
  });

  it("exports the CSV as a file, named by the server when it says so", async () => {
    const { fetch, api } = setup("question,answer,variants\n", 200, { "content-disposition": 'attachment; filename="faq.csv"', "content-type": "text/csv" });
    const { blob, fileName } = await api.exportCsv("pa1");
    expect(await blob.text()).toBe("question,answer,variants\n");
    expect(fileName).toBe("faq.csv");
    expect(call(fetch)[0]).toBe("/api/public-assistants/pa1/qa/export");
    expect(new Headers(call(fetch)[1].headers).get("authorization")).toBe(null);
  });

  it("turns a failed export into the server's error", async () => {
    const { api } = setup({ error: "Public assistant not found.", code: "NOT_FOUND", requestId: "r" }, 404);
    await expect(api.exportCsv("pa1")).rejects.toMatchObject({ status: 404, message: "Public assistant not found." });
  });
});

describe("attachmentName", () => {
  it("reads the file name, else falls back", () => {
    expect(attachmentName('attachment; filename="a b.csv"', "x.csv")).toBe("a b.csv");
    expect(attachmentName("attachment; filename*=UTF-8''caf%C3%A9.csv", "x.csv")).toBe("café.csv");
    expect(attachmentName('attachment; filename="../etc/passwd"', "x.csv")).toBe(".._etc_passwd");
    expect(attachmentName(null, "x.csv")).toBe("x.csv");
  });
});

describe("findPair", () => {
  it("finds a pair among the hint's matches, else pages through all", async () => {
    const list = vi.fn(async (_id: string, q: string, page: number) =>
      q ? { qa: [pair("a")], total: 1, page: 1, totalPages: 1 } : { qa: [pair(page === 1 ? "b" : "c")], total: 2, page, totalPages: 2 },
    );
    expect((await findPair({ list }, "pa1", "a", "Question a"))?.id).toBe("a");
    expect((await findPair({ list }, "pa1", "c", "Question a"))?.id).toBe("c");
    expect(await findPair({ list }, "pa1", "zzz", "")).toBe(null);
  });
});
