// @vitest-environment happy-dom
/**
 * The Team page against a mocked network (msw): an owner's members, roles, removal naming the
 * person, pending invitations and the invite dialog (the server's 409 and 400 on their fields);
 * an agent's page without management; the audit log in words with its filters; a 5xx with Try again.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { teamMessages, teamUi, type TeamResponse, type TeamRole } from "../../../../contract";
import { toastStore } from "../../stores/toast";
import { authStore } from "../../stores/auth";
import TeamPage from "./team";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

const serverError = () => HttpResponse.json({ error: "Internal server error", code: "INTERNAL_ERROR", requestId: "r" }, { status: 500 });
const ws = (role: TeamRole) => ({ id: "owner1", name: "Nadia's workspace", ownerId: "owner1", role });

function team(role: TeamRole): TeamResponse {
  return {
    workspace: ws(role),
    members: [
      { userId: "owner1", email: "nadia@example.com", name: "Nadia", role: "owner", addedAt: Date.UTC(2026, 0, 2) },
      { userId: "agent1", email: "amina@example.com", name: "Amina", role: "agent", addedAt: Date.UTC(2026, 1, 3) },
      { userId: "viewer1", email: "omar@example.com", name: "Omar", role: "viewer", addedAt: Date.UTC(2026, 1, 4) },
    ],
    invitations:
      role === "owner" || role === "admin"
        ? [{ id: "inv1", email: "sam@example.com", role: "viewer", invitedBy: { userId: "owner1", email: "nadia@example.com", name: "Nadia" }, createdAt: 1, expiresAt: Date.UTC(2026, 2, 1) }]
        : [],
    workspaces: [ws(role)],
  };
}

function signIn(id: string) {
  authStore.setState({
    status: "authenticated",
    isAuthenticated: true,
    user: { id, email: `${id}@example.com`, firstName: id, lastName: "", phone: "", birthDate: "", photoURL: null, isEmailVerified: true, hasPassword: true, createdAt: 1 },
  });
}

function renderPage(path = "/app/team") {
  const { hook } = memoryLocation({ path, record: true });
  return render(
    <Router hook={hook}>
      <TeamPage />
    </Router>,
  );
}

const members = () => within(screen.getByRole("list", { name: teamUi.members.listLabel }));

describe("the Team page, for the owner", () => {
  it("lists members with role and joined date, changes a role and removes a member after a question naming them", async () => {
    signIn("owner1");
    let current = team("owner");
    const calls: string[] = [];
    server.use(
      http.get("/api/team", () => HttpResponse.json(current)),
      http.patch("/api/team/members/:id", async ({ params, request }) => {
        const body = (await request.json()) as { role: string };
        calls.push(`PATCH ${params.id} ${body.role}`);
        current = { ...current, members: current.members.map((m) => (m.userId === params.id ? { ...m, role: body.role as TeamRole } : m)) };
        return HttpResponse.json({ member: current.members.find((m) => m.userId === params.id) });
      }),
      http.delete("/api/team/members/:id", ({ params }) => {
        calls.push(`DELETE ${params.id}`);
        current = { ...current, members: current.members.filter((m) => m.userId !== params.id) };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderPage();
    await screen.findByText("Amina");
    expect(members().getAllByRole("listitem")).toHaveLength(3);
    // The owner's own row has no controls; the others have a role select and Remove.
    expect(members().queryByRole("combobox", { name: teamUi.members.roleOf("Nadia") })).toBeNull();
    fireEvent.change(members().getByRole("combobox", { name: teamUi.members.roleOf("Amina") }), { target: { value: "viewer" } });
    await waitFor(() => expect(calls).toEqual(["PATCH agent1 viewer"]));
    await waitFor(() => expect(toastStore.getState().current?.description).toBe(teamUi.members.roleChanged("Amina", "Viewer")));

    fireEvent.click(members().getByRole("button", { name: teamUi.members.removeOf("Omar") }));
    const dialog = await screen.findByRole("alertdialog", { name: teamUi.members.confirmRemove.title("Omar") });
    fireEvent.click(within(dialog).getByRole("button", { name: teamUi.members.confirmRemove.confirm }));
    await waitFor(() => expect(calls).toContain("DELETE viewer1"));
    await waitFor(() => expect(screen.queryByText("Omar")).toBeNull());
  });

  it("invites: the server's 409 shows on the e-mail, its 400 on the role; success lists the invitation", async () => {
    signIn("owner1");
    let current = team("owner");
    const sent: unknown[] = [];
    server.use(
      http.get("/api/team", () => HttpResponse.json(current)),
      http.post("/api/team/invitations", async ({ request }) => {
        const body = (await request.json()) as { email: string; role: string };
        sent.push(body);
        if (body.email === "amina@example.com") return HttpResponse.json({ error: teamMessages.alreadyMember(body.email), code: "CONFLICT", requestId: "r" }, { status: 409 });
        if (body.role === "admin") return HttpResponse.json({ error: "Validation failed", code: "VALIDATION_ERROR", requestId: "r", fields: { role: "Only the owner may invite admins." } }, { status: 400 });
        const invitation = { id: "inv2", email: body.email, role: body.role, invitedBy: { userId: "owner1", email: "nadia@example.com", name: "Nadia" }, createdAt: 2, expiresAt: Date.UTC(2026, 2, 9) };
        current = { ...current, invitations: [invitation as TeamResponse["invitations"][number], ...current.invitations] };
        return HttpResponse.json({ invitation }, { status: 201 });
      }),
    );
    renderPage();
    expect(await screen.findByText("sam@example.com")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: teamUi.inviteDialog.open }));
    const dialog = within(await screen.findByRole("dialog", { name: teamUi.inviteDialog.title }));
    // The contract's own check first: nothing is sent for a bad address.
    fireEvent.change(dialog.getByLabelText(teamUi.inviteDialog.email), { target: { value: "not-an-email" } });
    fireEvent.click(dialog.getByRole("button", { name: teamUi.inviteDialog.send }));
    await waitFor(() => expect(dialog.getByLabelText(teamUi.inviteDialog.email).getAttribute("aria-invalid")).toBe("true"));
    expect(sent).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText(teamUi.inviteDialog.email), { target: { value: "amina@example.com" } });
    fireEvent.click(dialog.getByRole("button", { name: teamUi.inviteDialog.send }));
    expect(await dialog.findByText(teamMessages.alreadyMember("amina@example.com"))).toBeTruthy();
    expect(dialog.getByLabelText(teamUi.inviteDialog.email).getAttribute("aria-invalid")).toBe("true");

    fireEvent.change(dialog.getByLabelText(teamUi.inviteDialog.email), { target: { value: "lina@example.com" } });
    fireEvent.change(dialog.getByLabelText(teamUi.inviteDialog.role), { target: { value: "admin" } });
    fireEvent.click(dialog.getByRole("button", { name: teamUi.inviteDialog.send }));
    expect(await dialog.findByText("Only the owner may invite admins.")).toBeTruthy();
    expect(dialog.getByLabelText(teamUi.inviteDialog.role).getAttribute("aria-invalid")).toBe("true");

    fireEvent.change(dialog.getByLabelText(teamUi.inviteDialog.role), { target: { value: "agent" } });
    fireEvent.click(dialog.getByRole("button", { name: teamUi.inviteDialog.send }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: teamUi.inviteDialog.title })).toBeNull());
    expect(await screen.findByText("lina@example.com")).toBeTruthy();
    expect(sent.at(-1)).toEqual({ email: "lina@example.com", role: "agent" });
  });

  it("shows the audit log in words, newest first, and asks again with the filters chosen", async () => {
    signIn("owner1");
    const asked: string[] = [];
    server.use(
      http.get("/api/team", () => HttpResponse.json(team("owner"))),
      http.get("/api/team/audit", ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json({
          entries: [
            { id: "e2", at: Date.UTC(2026, 2, 2, 10), actor: { userId: "owner1", email: "nadia@example.com", name: "Nadia" }, action: "member.removed", assistant: null, target: "amina@example.com", details: {} },
            { id: "e1", at: Date.UTC(2026, 2, 1, 9), actor: { userId: "owner1", email: "nadia@example.com", name: "Nadia" }, action: "visitor.deleted", assistant: { id: "pa1", name: "Docs bot" }, target: "s1", details: { deletedConversations: 1 } },
          ],
          total: 2,
          page: 1,
          totalPages: 1,
        });
      }),
    );
    renderPage("/app/team?tab=audit");
    const log = within(await screen.findByRole("list", { name: teamUi.audit.listLabel }));
    const rows = log.getAllByRole("listitem");
    expect(rows[0]!.textContent).toContain("Nadia removed amina@example.com");
    expect(rows[1]!.textContent).toContain("Nadia deleted the data of visitor s1 (1 conversation)");
    expect(rows[1]!.textContent).toContain(teamUi.audit.assistant("Docs bot"));
    fireEvent.change(screen.getByLabelText(teamUi.audit.filterActor), { target: { value: "owner1" } });
    fireEvent.change(screen.getByLabelText(teamUi.audit.filterAction), { target: { value: "member.removed" } });
    await waitFor(() => expect(asked.at(-1)).toBe("?page=1&actor=owner1&action=member.removed"));
  });

  it("says what failed and reads again on Try again (a 5xx)", async () => {
    signIn("owner1");
    let fail = true;
    server.use(http.get("/api/team", () => (fail ? serverError() : HttpResponse.json(team("owner")))));
    renderPage();
    // The client retries a 5xx (1, 2, 4 s) before it gives up: the alert comes after that.
    const retry = await screen.findByRole("button", { name: "Try again" }, { timeout: 12_000 });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByText("Amina")).toBeTruthy();
  }, 20_000);
});

describe("the Team page, for an agent", () => {
  it("shows members without management, no invitations or audit, and Leave on their own row", async () => {
    signIn("agent1");
    server.use(http.get("/api/team", () => HttpResponse.json(team("agent"))));
    renderPage("/app/team?tab=audit");
    await screen.findByText("Amina");
    expect(screen.queryByRole("button", { name: teamUi.inviteDialog.open })).toBeNull();
    expect(screen.queryByRole("combobox")).toBeNull();
    expect(screen.queryByRole("button", { name: teamUi.members.removeOf("Omar") })).toBeNull();
    expect(screen.queryByRole("tab", { name: teamUi.page.auditTab })).toBeNull();
    expect(screen.queryByText(teamUi.invitations.title)).toBeNull();
    expect(screen.getByRole("button", { name: teamUi.members.leave })).toBeTruthy();
  });
});
