import { describe, expect, it, vi } from "vitest";
import { serverMessages } from "../../../contract";
import { ApiError, createApiClient, errorMessage } from "./api";
import { createPublicAssistantsApi, exportFileName, readUploadResponse } from "./public-assistants-api";

const uploadBody = {
  files: [{ _id: "f1", name: "a.txt", size: 3, uploadedAt: 1, status: "ready", error: null, chunkCount: 1 }],
  processed: 1,
  failed: 0,
  message: "1 file(s) uploaded and processed successfully",
};

describe("readUploadResponse", () => {
  it("returns a body that matches the contract", () => {
    expect(readUploadResponse(201, JSON.stringify(uploadBody)).processed).toBe(1);
  });
  it("fails an upload whose answer has no data (spec section 5)", () => {
    for (const text of ["", "null", "{}", "not json"]) {
      expect(() => readUploadResponse(201, text)).toThrow(ApiError);
    }
  });
  it("carries the server's error text and fields", () => {
    const body = { error: "x.pdf is password-protected.", code: "UNPROCESSABLE", requestId: "r1", fields: { "files.0": "x.pdf is password-protected." } };
    try {
      readUploadResponse(422, JSON.stringify(body));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toBe("x.pdf is password-protected.");
      expect((err as ApiError).fromServer).toBe(true);
      expect((err as ApiError).status).toBe(422);
    }
  });
  it("names a network failure and a bare error status like the HTTP client", () => {
    expect(() => readUploadResponse(0, "")).toThrow("Network Error");
    expect(() => readUploadResponse(418, "<html>")).toThrow("Request failed with status code 418");
  });
  it("reads a plain-text 5xx (a proxy's or the runtime's page) as the server's own 5xx: the contract's message, shown", () => {
    const plain = (() => {
      try {
        readUploadResponse(503, "Your worker restarted mid-request. Please try sending the request again.");
      } catch (err) {
        return err as ApiError;
      }
    })()!;
    expect(plain).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", message: serverMessages.internal });
    expect(errorMessage(plain, "fallback")).toBe(serverMessages.internal);
    expect(() => readUploadResponse(502, "<html>")).toThrow(serverMessages.internal);
  });
});

describe("public assistants API paths", () => {
  function setup(body: unknown, status = 200) {
    const fetch = vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));
    const client = createApiClient({ fetch, authorization: () => "Token t", sleep: async () => {} });
    return { fetch, api: createPublicAssistantsApi(client) };
  }
  const call = (fetch: ReturnType<typeof setup>["fetch"]) => fetch.mock.calls[0] as unknown as [string, RequestInit];

  it("asks for a page of ten sessions", async () => {
    const { fetch, api } = setup({ sessions: [], totalPages: 0, currentPage: 2, total: 0 });
    await api.chats("pa 1", 2);
    expect(call(fetch)[0]).toBe("/api/public-assistants/pa%201/chats?page=2&limit=10");
  });

  it("encodes the search query and the file id", async () => {
    const { fetch, api } = setup({ results: [], mode: "lexical" });
    await api.search("pa1", "price & plans?");
    expect(call(fetch)[0]).toBe("/api/public-assistants/pa1/search?q=price+%26+plans%3F");
    const del = setup(undefined, 204);
    await del.api.deleteFile("pa1", "f/1");
    expect(call(del.fetch)[0]).toBe("/api/public-assistants/pa1/files/f%2F1");
    expect(call(del.fetch)[1].method).toBe("DELETE");
  });

  it("returns the full key of raw-api-key and regenerate-key", async () => {
    const { fetch, api } = setup({ apiKey: "tala_pk_full" });
    expect(await api.regenerateKey("pa1")).toBe("tala_pk_full");
    expect(call(fetch)[0]).toBe("/api/public-assistants/pa1/regenerate-key");
    expect(call(fetch)[1].method).toBe("POST");
  });

  it("asks for the insights of a period, and refuses an answer that does not match the contract", async () => {
    const body = { days: 7, daily: [], feedback: { up: 1, down: 0 }, ratedAnswers: [], gaps: [], topQuestions: [], defence: { challenged: 2, refused: 1, required: false }, curatedAnswers: { exact: 3, guided: 1 } };
    const { fetch, api } = setup(body);
    expect(await api.getInsights("pa 1", 7)).toEqual(body);
    expect(call(fetch)[0]).toBe("/api/public-assistants/pa%201/insights?days=7");
    const bad = setup({ ...body, feedback: { up: "1" } });
    await expect(bad.api.getInsights("pa1", 30)).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
  });

  it("refuses a list that does not match the contract", async () => {
    const { api } = setup({ assistants: [{ _id: 1 }] });
    await expect(api.list()).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
  });

  it("exports the server's JSON as sent, after checking it", async () => {
    const body = { assistantId: "pa1", assistantName: "A", exportedAt: 1, total: 0, sessions: [], extra: { kept: true } };
    const { api } = setup(body);
    const blob = await api.exportChats("pa1");
    expect(JSON.parse(await blob.text())).toEqual(body);
    expect(exportFileName("pa1")).toBe("chat-history-pa1.json");
    await expect(setup({ nope: true }).api.exportChats("pa1")).rejects.toMatchObject({ code: "INVALID_RESPONSE" });
  });
});
