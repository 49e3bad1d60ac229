import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { widgetApiPaths } from "../../../contract/schemas/widget";
import { feedbackBody, feedbackResponse } from "../../../contract/schemas/insights";
import { Controller } from "./controller";

/**
 * The rating of an answer against a scripted server (fetch stubbed: no DOM, no socket here).
 * The session is resumed from storage, so opening the panel loads the conversation.
 */
const HOST = "https://tala.example";
const answer = (id: string, rating?: "up" | "down") => ({
  id,
  chatId: "s1",
  role: "assistant",
  content: { type: "text", data: `Answer ${id}` },
  files: [],
  timestamp: 1,
  status: "complete",
  ...(rating && { rating }),
});
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Feedback requests wait for the test to answer them. */
let feedback: { url: string; body: unknown; headers: Record<string, string>; answer: (r: Response | Error) => void }[];

beforeEach(() => {
  feedback = [];
  const store = new Map([["tala:session:asst", "s1"]]);
  vi.stubGlobal("document", { documentElement: { lang: "en" } });
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  vi.stubGlobal("location", { href: "https://shop.example/" });
  vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
  vi.stubGlobal("WebSocket", undefined);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.slice(HOST.length);
      if (path === widgetApiPaths.config) {
        return json({
          assistant: { id: "asst", name: "A", headerText: "H", welcomeMessage: "", primaryColor: "#2962FF", position: "bottom-right", size: "medium", allowAttachments: false, showSources: true },
          limits: { maxMessagesPerSession: 10, dailyLimit: 100 },
        });
      }
      if (path === widgetApiPaths.sessions) return json({ sessionId: "s1", messages: [answer("a1"), answer("a2", "down")], remaining: { session: 8, daily: 98 } });
      return new Promise<Response>((resolve, reject) =>
        feedback.push({ url: path, body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string>, answer: (r) => (r instanceof Error ? reject(r) : resolve(r)) }),
      );
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openWidget() {
  const emit = vi.fn();
  const c = new Controller({ apiKey: "tala_pk_test", host: HOST }, emit);
  await c.start();
  c.setOpen(true);
  await vi.waitFor(() => expect(c.state.messages).toHaveLength(2));
  return { c, emit, rating: (id: string) => c.state.messages.find((m) => m.id === id)?.rating };
}
const flush = () => new Promise((r) => setTimeout(r, 0));
const accepted = (rating: "up" | "down", messageId = "a1") => json(feedbackResponse.parse({ messageId, rating }));

describe("rating an answer", () => {
  it("shows a rating loaded with the conversation", async () => {
    const { rating } = await openWidget();
    expect(rating("a1")).toBeUndefined();
    expect(rating("a2")).toBe("down");
  });

  it("shows the choice at once and sends it as the contract says, with the key", async () => {
    const { c, emit, rating } = await openWidget();
    c.rate("a1", "up");
    expect(rating("a1")).toBe("up");
    await vi.waitFor(() => expect(feedback).toHaveLength(1));
    expect(feedback[0]!.url).toBe(widgetApiPaths.feedback("s1", "a1"));
    expect(feedbackBody.parse(feedback[0]!.body)).toEqual({ rating: "up" });
    expect(feedback[0]!.headers["X-Assistant-Key"]).toBe("tala_pk_test");
    feedback[0]!.answer(accepted("up"));
    await vi.waitFor(() => expect(emit).toHaveBeenCalledWith("feedback", { rating: "up", text: "Answer a1" }));
    expect(rating("a1")).toBe("up");
    // The same choice again sends nothing; changing it sends again.
    c.rate("a1", "up");
    c.rate("a1", "down");
    expect(rating("a1")).toBe("down");
    await vi.waitFor(() => expect(feedback).toHaveLength(2));
    expect(feedback[1]!.body).toEqual({ rating: "down" });
  });

  it("keeps one request per answer in flight: clicks meanwhile send only the last choice, after it", async () => {
    const { c, rating } = await openWidget();
    c.rate("a1", "up");
    c.rate("a1", "down");
    c.rate("a1", "up");
    c.rate("a1", "down");
    expect(rating("a1")).toBe("down");
    await vi.waitFor(() => expect(feedback).toHaveLength(1));
    expect(feedback[0]!.body).toEqual({ rating: "up" });
    feedback[0]!.answer(accepted("up"));
    await vi.waitFor(() => expect(feedback).toHaveLength(2));
    expect(feedback[1]!.body).toEqual({ rating: "down" });
    feedback[1]!.answer(accepted("down"));
    await flush();
    expect(feedback).toHaveLength(2);
    expect(rating("a1")).toBe("down");
  });

  it("puts the previous rating back when the server refuses, without a notice or an error event", async () => {
    const { c, emit, rating } = await openWidget();
    c.rate("a2", "up");
    expect(rating("a2")).toBe("up");
    await vi.waitFor(() => expect(feedback).toHaveLength(1));
    feedback[0]!.answer(json({ error: "Message not found.", code: "NOT_FOUND" }, 404));
    await vi.waitFor(() => expect(rating("a2")).toBe("down"));
    expect(c.state.notice).toBeNull();
    expect(emit.mock.calls.filter(([event]) => event === "error" || event === "feedback")).toEqual([]);
  });

  it("puts it back when offline (no retry)", async () => {
    const { c, rating } = await openWidget();
    c.rate("a1", "down");
    await vi.waitFor(() => expect(feedback).toHaveLength(1));
    feedback[0]!.answer(new TypeError("Failed to fetch"));
    await vi.waitFor(() => expect(rating("a1")).toBeUndefined());
    await flush();
    expect(feedback).toHaveLength(1);
  });

  it("retries a 5xx only with the API's bounded waits (1, 2, 4 s), then puts it back", async () => {
    const { c, rating } = await openWidget();
    vi.useFakeTimers();
    c.rate("a1", "up");
    for (let attempt = 1; attempt <= 4; attempt++) {
      await vi.waitFor(() => expect(feedback).toHaveLength(attempt));
      feedback[attempt - 1]!.answer(json({ error: "Unavailable", code: "INTERNAL" }, 503));
      await vi.advanceTimersByTimeAsync(4000);
    }
    await vi.waitFor(() => expect(rating("a1")).toBeUndefined());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(feedback).toHaveLength(4);
    expect(c.state.notice).toBeNull();
  });

  it("after a failure, a change made meanwhile is dropped with it; the visitor may click again", async () => {
    const { c, rating } = await openWidget();
    c.rate("a1", "up");
    c.rate("a1", "down");
    await vi.waitFor(() => expect(feedback).toHaveLength(1));
    feedback[0]!.answer(new TypeError("Failed to fetch"));
    await vi.waitFor(() => expect(rating("a1")).toBeUndefined());
    await flush();
    expect(feedback).toHaveLength(1);
    c.rate("a1", "down");
    await vi.waitFor(() => expect(feedback).toHaveLength(2));
    expect(feedback[1]!.body).toEqual({ rating: "down" });
    feedback[1]!.answer(accepted("down"));
    await flush();
    expect(rating("a1")).toBe("down");
  });
});
