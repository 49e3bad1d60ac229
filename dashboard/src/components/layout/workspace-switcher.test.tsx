// @vitest-environment happy-dom
/**
 * The workspace switcher and its store against a mocked network (msw): the user's workspaces
 * with their role, a switch that every later call names (X-Workspace-Id) and that is kept for the
 * next visit, the `team-changed` frame that re-reads the list, and a workspace the user was
 * removed from (404) falling back to their own with a notice.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { storageKeys, teamLimits, teamMessages, teamUi, type TeamResponse, type Workspace } from "../../../../contract";
import { authStore } from "../../stores/auth";
import { handleServerFrame } from "../../stores/chat-realtime";
import { toastStore } from "../../stores/toast";
import { startWorkspaces, useWorkspace } from "../../stores/workspace";
import { WorkspaceSwitcher } from "./workspace-switcher";

// The store listens on the tab's chat connection; here frames are fed through its entry instead.
vi.mock("../../stores/chat-realtime", async (actual) => ({ ...(await actual<typeof import("../../stores/chat-realtime")>()), startChatRealtime: () => undefined }));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const own: Workspace = { id: "me1", name: "Amina's workspace", ownerId: "me1", role: "owner" };
const nadia: Workspace = { id: "owner1", name: "Nadia's workspace", ownerId: "owner1", role: "agent" };
const teamOf = (w: Workspace, workspaces: Workspace[]): TeamResponse => ({ workspace: w, members: [], invitations: [], workspaces });
const notFound = () => HttpResponse.json({ error: teamMessages.workspaceNotFound, code: "NOT_FOUND", requestId: "r" }, { status: 404 });

describe("the workspace switcher", () => {
  it("lists the workspaces with the role, switches (named on every call, kept), re-reads on team-changed, and falls back when removed", async () => {
    localStorage.setItem(storageKeys.token, "tok");
    let member = true;
    const headers: (string | null)[] = [];
    server.use(
      http.get("/api/team", ({ request }) => {
        const asked = request.headers.get(teamLimits.workspaceHeader);
        headers.push(asked);
        const list = member ? [own, nadia] : [own];
        if (asked === nadia.id) return member ? HttpResponse.json(teamOf(nadia, list)) : notFound();
        return HttpResponse.json(teamOf(own, list));
      }),
    );
    authStore.setState({
      status: "authenticated",
      isAuthenticated: true,
      user: { id: "me1", email: "amina@example.com", firstName: "Amina", lastName: "", phone: "", birthDate: "", photoURL: null, isEmailVerified: true, hasPassword: true, createdAt: 1 },
    });
    startWorkspaces();
    const { hook } = memoryLocation({ path: "/app/public-assistants/pa1", record: true });
    render(
      <Router hook={hook}>
        <WorkspaceSwitcher />
      </Router>,
    );
    const button = await screen.findByRole("button", { name: teamUi.switcher.label(own.name, "Owner") });
    await waitFor(() => expect(useWorkspace.getState().workspaces).toHaveLength(2));
    expect(headers[0]).toBeNull();

    fireEvent.click(button);
    const menu = within(screen.getByRole("menu"));
    expect(menu.getByRole("menuitemradio", { name: new RegExp(own.name) }).getAttribute("aria-checked")).toBe("true");
    const before = useWorkspace.getState().version;
    fireEvent.click(menu.getByRole("menuitemradio", { name: new RegExp(nadia.name) }));
    expect(await screen.findByRole("button", { name: teamUi.switcher.label(nadia.name, "Agent") })).toBeTruthy();
    expect(useWorkspace.getState().version).toBe(before + 1);
    await waitFor(() => expect(headers.at(-1)).toBe(nadia.id));
    expect(JSON.parse(localStorage.getItem(storageKeys.workspace) ?? "null")).toMatchObject({ userId: "me1", id: nadia.id, role: "agent" });

    // Removed meanwhile: the server's frame makes the dashboard read again, the 404 sends it home.
    member = false;
    act(() => handleServerFrame({ event: "team-changed", data: { workspaceId: nadia.id } }));
    expect(await screen.findByRole("button", { name: teamUi.switcher.label(own.name, "Owner") })).toBeTruthy();
    await waitFor(() => expect(toastStore.getState().current?.title).toBe(teamUi.switcher.removedNotice(nadia.name)));
    expect(localStorage.getItem(storageKeys.workspace)).toBeNull();
    await waitFor(() => expect(useWorkspace.getState().workspaces).toEqual([own]));
    expect(headers.at(-1)).toBeNull();
  });
});
