// @vitest-environment happy-dom
/**
 * A conversation's privacy actions against a mocked network (msw): hidden from a role without
 * `privacy.manage`; Delete conversation asked first, gone after; the visitor's export saved as a
 * file; Delete visitor's data naming how many conversations and saying the counts after; a 5xx
 * and an offline network leave everything in place and say why.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { httpClientMessages, privacyUi, visitorSessionSchema, type VisitorSession } from "../../../../contract";
import { toastStore } from "../../stores/toast";
import { useWorkspace } from "../../stores/workspace";
import { ConversationPrivacyActions } from "./privacy-actions";

const saved = vi.hoisted(() => ({ blobs: [] as { blob: Blob; fileName: string }[] }));
vi.mock("../../lib/clipboard", async (actual) => ({
  ...(await actual<typeof import("../../lib/clipboard")>()),
  saveBlob: (blob: Blob, fileName: string) => saved.blobs.push({ blob, fileName }),
}));

const C = privacyUi.conversation;
const base = "/api/public-assistants/pa1";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  saved.blobs.length = 0;
  useWorkspace.setState({ current: null });
});
afterAll(() => server.close());

const session = (visitor?: VisitorSession["visitor"]): VisitorSession =>
  visitorSessionSchema.parse({
    _id: "s1",
    sessionId: "s1",
    messageCount: 2,
    lastMessageAt: 2,
    sessionInfo: { referrer: "", startedAt: 1, origin: "https://shop.example", userAgent: "", locale: "en" },
    messages: [],
    ...(visitor ? { visitor } : {}),
  });
const serverError = () => HttpResponse.json({ error: "Internal server error", code: "INTERNAL_ERROR", requestId: "r" }, { status: 500 });

describe("a conversation's privacy actions", () => {
  it("are not offered to a role that may not manage privacy (an agent)", () => {
    useWorkspace.setState({ current: { id: "w", name: "W", ownerId: "o", role: "agent" } });
    render(<ConversationPrivacyActions assistantId="pa1" session={session()} onDeleted={() => undefined} />);
    expect(screen.queryByRole("button", { name: new RegExp(C.deleteConversation) })).toBeNull();
    expect(screen.queryByRole("button", { name: new RegExp(C.exportVisitor) })).toBeNull();
  });

  it("deletes the conversation once asked, and tells the list", async () => {
    const onDeleted = vi.fn();
    const deleted: string[] = [];
    server.use(http.delete(`${base}/chats/:sid`, ({ params }) => (deleted.push(String(params.sid)), new HttpResponse(null, { status: 204 }))));
    render(<ConversationPrivacyActions assistantId="pa1" session={session()} onDeleted={onDeleted} />);
    fireEvent.click(screen.getByRole("button", { name: new RegExp(C.deleteConversation) }));
    const dialog = within(await screen.findByRole("alertdialog", { name: C.confirmDeleteConversation.title }));
    fireEvent.click(dialog.getByRole("button", { name: C.confirmDeleteConversation.confirm }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(deleted).toEqual(["s1"]);
    expect(toastStore.getState().current?.description).toBe(C.conversationDeleted);
  });

  it("exports a signed visitor's data as their JSON file", async () => {
    server.use(
      http.get(`${base}/visitors/:vid/export`, ({ params }) =>
        HttpResponse.json({ visitorId: params.vid }, { headers: { "content-disposition": `attachment; filename="visitor-${String(params.vid)}.json"` } }),
      ),
    );
    render(<ConversationPrivacyActions assistantId="pa1" session={session({ id: "user-42", name: "Sara", email: "sara@example.com" })} onDeleted={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: new RegExp(C.exportVisitor) }));
    await waitFor(() => expect(saved.blobs).toHaveLength(1));
    expect(saved.blobs[0]!.fileName).toBe("visitor-user-42.json");
    expect(JSON.parse(await saved.blobs[0]!.blob.text())).toEqual({ visitorId: "user-42" });
  });

  it("names how many conversations a signed visitor's deletion takes, then says what was deleted", async () => {
    const onDeleted = vi.fn();
    server.use(
      http.get(`${base}/chats`, ({ request }) => {
        expect(new URL(request.url).searchParams.get("user")).toBe("user-42");
        return HttpResponse.json({ sessions: [], total: 3, totalPages: 1, currentPage: 1 });
      }),
      http.delete(`${base}/visitors/user-42`, () => HttpResponse.json({ deletedConversations: 3, deletedMessages: 11, deletedLeads: 1, deletedFiles: 2 })),
    );
    render(<ConversationPrivacyActions assistantId="pa1" session={session({ id: "user-42", name: "Sara", email: "sara@example.com" })} onDeleted={onDeleted} />);
    fireEvent.click(screen.getByRole("button", { name: new RegExp(C.deleteVisitor) }));
    const dialog = await screen.findByRole("alertdialog", { name: C.confirmDeleteVisitor.title });
    expect(dialog.textContent).toContain(C.confirmDeleteVisitor.description(C.signedVisitor("Sara"), 3, true));
    fireEvent.click(within(dialog).getByRole("button", { name: C.confirmDeleteVisitor.confirm }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(toastStore.getState().current?.description).toBe(C.visitorDeleted({ deletedConversations: 3, deletedMessages: 11, deletedLeads: 1, deletedFiles: 2 }));
  });

  it("keeps everything and says why on a 5xx (after the client's retries) and when offline", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onDeleted = vi.fn();
    server.use(http.delete(`${base}/chats/s1`, serverError), http.get(`${base}/visitors/s1/export`, () => HttpResponse.error()));
    render(<ConversationPrivacyActions assistantId="pa1" session={session()} onDeleted={onDeleted} />);
    fireEvent.click(screen.getByRole("button", { name: new RegExp(C.deleteConversation) }));
    const dialog = within(await screen.findByRole("alertdialog", { name: C.confirmDeleteConversation.title }));
    fireEvent.click(dialog.getByRole("button", { name: C.confirmDeleteConversation.confirm }));
    await vi.advanceTimersByTimeAsync(8_000);
    await waitFor(() => expect(toastStore.getState().current?.title).toBe(C.deleteConversationFailed));
    expect(toastStore.getState().current?.description).toBe("Internal server error");
    expect(onDeleted).not.toHaveBeenCalled();
    // Still asked: the owner may try again or cancel.
    expect(screen.getByRole("alertdialog", { name: C.confirmDeleteConversation.title })).toBeTruthy();
    fireEvent.click(dialog.getByRole("button", { name: C.cancel }));

    fireEvent.click(screen.getByRole("button", { name: new RegExp(C.exportVisitor) }));
    await waitFor(() => expect(toastStore.getState().current?.title).toBe(C.exportFailed));
    expect(toastStore.getState().current?.description).toBe(httpClientMessages.networkError);
    expect(saved.blobs).toHaveLength(0);
    vi.useRealTimers();
  });
});
