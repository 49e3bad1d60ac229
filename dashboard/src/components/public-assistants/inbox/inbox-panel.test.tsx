// @vitest-environment happy-dom
/**
 * The Inbox and its conversation view against a mocked network (msw): the socket's frames, the
 * socket that never opens (polling), offline, a 5xx, a 409, slow answers.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { handoffLimits, handoffMessages, inboxUi, type InboxConversation, type ServerFrame } from "../../../../../contract";
import { useChatStore } from "../../../stores/chat";
import { handleServerFrame } from "../../../stores/chat-realtime";
import { testAssistant } from "../../../test/assistant-fixture";
import { inbox, message, row, session } from "./inbox-fixtures";
import { InboxPanel } from "./inbox-panel";

const base = "/api/public-assistants/pa1";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const assistant = testAssistant({ _id: "pa1" });

function socket(up: boolean) {
  useChatStore.setState({ connection: up ? { state: "open", reconnected: false } : { state: "reconnecting", attempt: 2, reason: "network", lost: false } });
}
const frame = (data: Extract<ServerFrame, { event: "inbox" }>["data"]) => act(() => handleServerFrame({ event: "inbox", data }));

function renderInbox(sessionId: string | null = null, select = vi.fn()) {
  return render(<InboxPanel assistant={assistant} shown session={sessionId} selectSession={select} />);
}
const filters = () => within(screen.getByRole("group", { name: inboxUi.filtersLabel }));
const rows = () => within(screen.getByRole("list", { name: inboxUi.listLabel })).getAllByRole("button");

const noContent = () => new HttpResponse(null, { status: 204 });
const serverError = () => HttpResponse.json({ error: "Internal server error", code: "INTERNAL_ERROR", requestId: "r" }, { status: 500 });
/** Advances fake time in steps, letting answers and renders settle between them. */
async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe("the Inbox list", () => {
  beforeEach(() => socket(true));

  it("lists conversations with the filters' counts, watches while shown, and a frame brings a new message to the top at once", async () => {
    const watches: unknown[] = [];
    server.use(
      http.get(`${base}/inbox`, () => HttpResponse.json(inbox([row("s1", { handoff: { state: "requested" }, unread: 1 })]))),
      http.post(`${base}/inbox/watch`, async ({ request }) => {
        watches.push(await request.json());
        return noContent();
      }),
    );
    renderInbox();
    await screen.findByText("Question of s1");
    expect(filters().getByRole("button", { name: /Needs a person/ }).textContent).toBe("Needs a person1");
    expect(filters().getByRole("button", { name: /All/ }).textContent).toBe("All1");
    await waitFor(() => expect(watches).toEqual([{}]));
    expect(screen.queryByText(inboxUi.polling)).toBeNull();

    frame({ assistantId: "pa1", sessionId: "s2", kind: "message", conversation: row("s2", { title: "Where is my parcel?", lastMessageAt: 5_000, unread: 1, live: true }) });
    expect(rows()[0]!.textContent).toContain("Where is my parcel?");
    expect(rows()[0]!.textContent).toContain(inboxUi.unread(1));
    // Another assistant's frame is not this inbox's.
    frame({ assistantId: "other", sessionId: "s3", kind: "message", conversation: row("s3", { title: "Not mine", lastMessageAt: 9_000 }) });
    expect(screen.queryByText("Not mine")).toBeNull();
  });

  it("renews the watch every watchRenewMs while shown, naming the open conversation", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const watches: unknown[] = [];
    server.use(
      http.get(`${base}/inbox`, () => HttpResponse.json(inbox([row("s1")]))),
      http.post(`${base}/inbox/watch`, async ({ request }) => {
        watches.push(await request.json());
        return noContent();
      }),
      http.get(`${base}/chats/s1`, () => HttpResponse.json({ session: session("s1") })),
      http.post(`${base}/chats/s1/read`, noContent),
    );
    renderInbox("s1");
    await screen.findByText("Can I talk to someone?");
    await waitFor(() => expect(watches).toEqual([{ sessionId: "s1" }]));
    await elapse(handoffLimits.watchRenewMs);
    expect(watches).toEqual([{ sessionId: "s1" }, { sessionId: "s1" }]);
  });

  it("when the socket never opens, polls the inbox every few seconds and says it is reconnecting; no watch is asked", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    socket(false);
    let reads = 0;
    let watched = 0;
    server.use(
      http.get(`${base}/inbox`, () => {
        reads += 1;
        return HttpResponse.json(inbox(reads > 1 ? [row("s2", { title: "Came while polling", lastMessageAt: 9 }), row("s1")] : [row("s1")]));
      }),
      http.post(`${base}/inbox/watch`, () => {
        watched += 1;
        return noContent();
      }),
    );
    renderInbox();
    await screen.findByText("Question of s1");
    expect(screen.getByText(inboxUi.polling)).toBeTruthy();
    await elapse(handoffLimits.inboxPollMs);
    await screen.findByText("Came while polling");
    expect(reads).toBe(2);
    expect(watched).toBe(0);
    // The socket comes back: the notice goes, polling stops, the watch starts.
    act(() => socket(true));
    await waitFor(() => expect(watched).toBe(1));
    expect(screen.queryByText(inboxUi.polling)).toBeNull();
    const before = reads;
    await elapse(handoffLimits.inboxPollMs * 2);
    expect(reads).toBe(before);
  });

  it("a 5xx (after the client's retries) shows the error with Try again, which reads it again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let fail = true;
    server.use(http.get(`${base}/inbox`, () => (fail ? serverError() : HttpResponse.json(inbox([row("s1")])))), http.post(`${base}/inbox/watch`, noContent));
    renderInbox();
    await elapse(8_000);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Internal server error");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: inboxUi.retry }));
    await screen.findByText("Question of s1");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("offline: says so (Network Error), with a retry", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(http.get(`${base}/inbox`, () => HttpResponse.error()), http.post(`${base}/inbox/watch`, () => HttpResponse.error()));
    renderInbox();
    await elapse(8_000);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Network Error");
    expect(within(alert).getByRole("button", { name: inboxUi.retry })).toBeTruthy();
  });

  it("a slow answer shows the loading state, then the list; a filter reads its own page", async () => {
    const asked: string[] = [];
    server.use(
      http.get(`${base}/inbox`, async ({ request }) => {
        const filter = new URL(request.url).searchParams.get("filter") ?? "";
        asked.push(filter);
        await delay(300);
        return HttpResponse.json(filter === "needs-person" ? inbox([row("s9", { title: "Waiting one", handoff: { state: "requested" } })]) : inbox([]));
      }),
      http.post(`${base}/inbox/watch`, noContent),
    );
    renderInbox();
    expect(screen.getByRole("status").textContent).toContain(inboxUi.listLabel);
    await screen.findByText(inboxUi.empty.all);
    fireEvent.click(filters().getByRole("button", { name: /Needs a person/ }));
    await screen.findByText("Waiting one");
    expect(asked).toEqual(["all", "needs-person"]);
  });
});

describe("the conversation view", () => {
  beforeEach(() => socket(true));

  function conversationServer(over: { takeover?: () => Response | Promise<Response>; send?: (body: { content: string }) => Response | Promise<Response> } = {}) {
    const calls = { typing: [] as boolean[], read: 0, takeover: 0, sent: [] as string[] };
    let current = session("s1", { contactEmail: "visitor@example.com" });
    server.use(
      http.get(`${base}/inbox`, () => HttpResponse.json(inbox([row("s1", { unread: 2 })]))),
      http.post(`${base}/inbox/watch`, noContent),
      http.get(`${base}/chats/s1`, () => HttpResponse.json({ session: current })),
      http.post(`${base}/chats/s1/read`, () => {
        calls.read += 1;
        return noContent();
      }),
      http.post(`${base}/chats/s1/typing`, async ({ request }) => {
        calls.typing.push(((await request.json()) as { typing: boolean }).typing);
        return noContent();
      }),
      http.post(`${base}/chats/s1/takeover`, async () => {
        calls.takeover += 1;
        if (over.takeover) return over.takeover();
        current = { ...current, handoff: { state: "taken", takenAt: 2_000, agent: { name: "Sam Lee", initials: "SL" } } };
        return HttpResponse.json({ session: current });
      }),
      http.delete(`${base}/chats/s1/takeover`, () => {
        current = { ...current, handoff: { state: "none" } };
        return HttpResponse.json({ session: current });
      }),
      http.post(`${base}/chats/s1/messages`, async ({ request }) => {
        const body = (await request.json()) as { content: string };
        calls.sent.push(body.content);
        if (over.send) return over.send(body);
        return HttpResponse.json({ message: message(`g${calls.sent.length}`, "agent", body.content, 3_000, { author: { name: "Sam Lee", initials: "SL" } }) }, { status: 201 });
      }),
    );
    return calls;
  }

  it("opens read, shows the e-mail the visitor left, takes over, replies as the person, and hands back", async () => {
    const calls = conversationServer();
    renderInbox("s1");
    await screen.findByText("Can I talk to someone?");
    await waitFor(() => expect(calls.read).toBe(1));
    expect(screen.getByRole("link", { name: "visitor@example.com" })).toBeTruthy();
    // The row of the open conversation is read.
    expect(rows()[0]!.textContent).not.toContain(inboxUi.unread(2));

    fireEvent.click(screen.getByRole("button", { name: inboxUi.conversation.takeOver }));
    const box = await screen.findByLabelText(inboxUi.composer.label);
    expect(screen.getByText(inboxUi.conversation.taken("Sam Lee"))).toBeTruthy();
    fireEvent.change(box, { target: { value: "Hi, I am **Sam**." } });
    await waitFor(() => expect(calls.typing).toEqual([true]));
    // Typing again at once is not sent again (at most every typingSendMs).
    fireEvent.change(box, { target: { value: "Hi, I am **Sam**. How" } });
    fireEvent.change(box, { target: { value: "Hi, I am **Sam**." } });
    expect(calls.typing).toEqual([true]);

    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.preview }));
    expect(screen.getByLabelText(inboxUi.composer.preview).querySelector("strong")?.textContent).toBe("Sam");
    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.write }));

    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.send }));
    await screen.findByText(inboxUi.agentLabel("Sam Lee"));
    expect(calls.sent).toEqual(["Hi, I am **Sam**."]);
    expect((screen.getByLabelText(inboxUi.composer.label) as HTMLTextAreaElement).value).toBe("");
    await waitFor(() => expect(calls.typing).toEqual([true, false]));

    fireEvent.click(screen.getByRole("button", { name: inboxUi.conversation.handBack }));
    await screen.findByText(inboxUi.conversation.none);
    expect(screen.queryByLabelText(inboxUi.composer.label)).toBeNull();
  });

  it("a 409 on take over (another person has it) says who, with a retry; a slow take over keeps the button busy", async () => {
    let answer: () => Response | Promise<Response> = async () => {
      await delay(200);
      return HttpResponse.json({ error: handoffMessages.takenByAnother("Alex"), code: "CONFLICT", requestId: "r" }, { status: 409 });
    };
    const calls = conversationServer({ takeover: () => answer() });
    renderInbox("s1");
    await screen.findByText("Can I talk to someone?");
    const take = screen.getByRole("button", { name: inboxUi.conversation.takeOver });
    fireEvent.click(take);
    await waitFor(() => expect(take.hasAttribute("disabled")).toBe(true));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(handoffMessages.takenByAnother("Alex"));
    answer = () => HttpResponse.json({ session: session("s1", { handoff: { state: "taken", agent: { name: "Sam Lee", initials: "SL" } } }) });
    fireEvent.click(within(alert).getByRole("button", { name: inboxUi.retry }));
    await screen.findByLabelText(inboxUi.composer.label);
    expect(calls.takeover).toBe(2);
  });

  it("a reply refused (5xx, then 409 not taken over, then 400 naming the limit) keeps what was typed and says why", async () => {
    let answer: () => Response = serverError;
    const calls = conversationServer({ send: () => answer() });
    renderInbox("s1");
    await screen.findByText("Can I talk to someone?");
    fireEvent.click(screen.getByRole("button", { name: inboxUi.conversation.takeOver }));
    const box = (await screen.findByLabelText(inboxUi.composer.label)) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "Your refund is on its way." } });
    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.send }));
    expect((await screen.findByRole("alert")).textContent).toContain("Internal server error");
    expect(box.value).toBe("Your refund is on its way.");
    expect(calls.sent).toHaveLength(1); // a person's message is never sent twice by a retry of the client

    answer = () => HttpResponse.json({ error: handoffMessages.contentTooLong(handoffLimits.maxMessageChars), code: "VALIDATION_ERROR", requestId: "r" }, { status: 400 });
    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.retry }));
    await screen.findByText(handoffMessages.contentTooLong(handoffLimits.maxMessageChars));
    expect(box.value).toBe("Your refund is on its way.");

    answer = () => HttpResponse.json({ error: handoffMessages.notTakenOver, code: "CONFLICT", requestId: "r" }, { status: 409 });
    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.retry }));
    await screen.findByText(handoffMessages.notTakenOver);
  });

  it("checks the limit before sending: too long is refused here with the contract's message", async () => {
    const calls = conversationServer();
    renderInbox("s1");
    await screen.findByText("Can I talk to someone?");
    fireEvent.click(screen.getByRole("button", { name: inboxUi.conversation.takeOver }));
    const box = await screen.findByLabelText(inboxUi.composer.label);
    fireEvent.change(box, { target: { value: "x".repeat(handoffLimits.maxMessageChars + 1) } });
    expect(screen.getByText(inboxUi.composer.counter(handoffLimits.maxMessageChars + 1, handoffLimits.maxMessageChars))).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: inboxUi.composer.send }));
    expect((await screen.findByRole("alert")).textContent).toContain(handoffMessages.contentTooLong(handoffLimits.maxMessageChars));
    expect(calls.sent).toEqual([]);
  });

  it("a frame stream: the visitor types, writes (read at once), and the watched reply streams in, then is saved", async () => {
    const calls = conversationServer();
    renderInbox("s1");
    await screen.findByText("Can I talk to someone?");
    await waitFor(() => expect(calls.read).toBe(1));
    const f = (data: Omit<Parameters<typeof frame>[0], "assistantId" | "sessionId">) => frame({ assistantId: "pa1", sessionId: "s1", ...data } as Parameters<typeof frame>[0]);
    const conv: InboxConversation = row("s1", { lastMessageAt: 4_000, unread: 1 });
    f({ kind: "typing", typing: true });
    expect(screen.getByText(inboxUi.conversation.typing)).toBeTruthy();
    f({ kind: "message", conversation: conv, message: message("m2", "user", "Is anyone there?", 4_000) });
    expect(screen.getByText("Is anyone there?")).toBeTruthy();
    expect(screen.queryByText(inboxUi.conversation.typing)).toBeNull();
    await waitFor(() => expect(calls.read).toBe(2));
    f({ kind: "thinking" });
    expect(screen.getByText(inboxUi.conversation.replying)).toBeTruthy();
    f({ kind: "delta", delta: { messageId: "a2", offset: 0, text: "Let me " } });
    f({ kind: "delta", delta: { messageId: "a2", offset: 7, text: "check that." } });
    expect(screen.getByText("Let me check that.")).toBeTruthy();
    f({ kind: "message", conversation: conv, message: message("a2", "assistant", "Let me check that for you.", 4_500) });
    expect(screen.getByText("Let me check that for you.")).toBeTruthy();
    expect(screen.queryByText("Let me check that.")).toBeNull();
    expect(screen.queryByText(inboxUi.conversation.replying)).toBeNull();
  });

  it("a conversation that no longer exists (404) says so, with a retry", async () => {
    server.use(
      http.get(`${base}/inbox`, () => HttpResponse.json(inbox([]))),
      http.post(`${base}/inbox/watch`, noContent),
      http.get(`${base}/chats/gone`, () => HttpResponse.json({ error: handoffMessages.conversationNotFound, code: "NOT_FOUND", requestId: "r" }, { status: 404 })),
    );
    renderInbox("gone");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(inboxUi.conversation.notFound);
    expect(within(alert).getByRole("button", { name: inboxUi.retry })).toBeTruthy();
  });
});
