/**
 * The workspace the dashboard acts in, and every workspace the signed-in user belongs to (GET
 * /api/team's `workspaces`: the switcher). The choice is kept per user in local storage
 * (lib/workspace-choice.ts) and sent by the HTTP client as X-Workspace-Id on every call.
 *
 * - Switching bumps `version`: the layout remounts the page on screen, which reads its data again.
 * - A workspace that answers 404 (the user was removed from it) falls back to the user's own, with
 *   a short notice; so does one missing from the list GET /api/team returns.
 * - The list is read again on sign-in, on focus, and when the server's membership frame arrives
 *   (`refreshWorkspaces`), so a removal or a lowered role shows within a second.
 */
import { create } from "zustand";
import { can, teamMessages, teamUi, type TeamPermission, type TeamResponse, type TeamRole, type User, type Workspace } from "../../../contract";
import { ApiError, onWorkspaceRefused } from "../lib/api";
import { teamApi, type TeamApi } from "../lib/team-api";
import { clearWorkspaceInMemory, readWorkspaceChoice, setWorkspaceChoice } from "../lib/workspace-choice";
import { authStore, type AuthState } from "./auth";
import { onTeamChangedFrame, startChatRealtime } from "./chat-realtime";
import { toast } from "./toast";

export interface WorkspaceState {
  /** The signed-in user's id, or null (nobody: nothing below means anything). */
  userId: string | null;
  /** The workspace calls act in (the user's own until they choose another). */
  current: Workspace | null;
  /** Every workspace of the user, their own first; empty until read. */
  workspaces: Workspace[];
  /** The last GET /api/team answer, for the current workspace. */
  team: TeamResponse | null;
  status: "idle" | "loading" | "ready" | "error";
  /** Bumped on every switch: pages keyed on it read their data again. */
  version: number;
}

const initial: WorkspaceState = { userId: null, current: null, workspaces: [], team: null, status: "idle", version: 0 };

export const useWorkspace = create<WorkspaceState>()(() => initial);

/** The user's own workspace before the server named it (its id is their user id; they own it). */
export function ownWorkspace(user: Pick<User, "id" | "firstName" | "email">): Workspace {
  return { id: user.id, name: teamMessages.defaultWorkspaceName(user.firstName || user.email), ownerId: user.id, role: "owner" };
}

const keep = (userId: string, w: Workspace) => setWorkspaceChoice(w.id === userId ? null : { userId, id: w.id, role: w.role, name: w.name });

export interface WorkspaceDeps {
  api: Pick<TeamApi, "team">;
  user: () => User | null;
  /** Tells the user something happened to their workspace (a removal). */
  notify: (message: string) => void;
}

export function createWorkspaceActions(deps: WorkspaceDeps) {
  let seq = 0;
  const set = useWorkspace.setState;
  const get = useWorkspace.getState;

  /** Back to the user's own workspace, saying why (`gone`: the one that was chosen). */
  function fallBack(gone: Workspace | null) {
    const user = deps.user();
    if (!user) return;
    setWorkspaceChoice(null);
    const own = get().workspaces.find((w) => w.id === user.id) ?? ownWorkspace(user);
    set((s) => ({ current: own, team: null, version: s.version + 1, workspaces: s.workspaces.filter((w) => w.id !== gone?.id) }));
    if (gone && gone.id !== user.id) deps.notify(teamUi.switcher.removedNotice(gone.name));
  }

  /** Reads GET /api/team for the current workspace: the list, the caller's role there. */
  async function refresh(): Promise<void> {
    const user = deps.user();
    if (!user) return;
    const mine = ++seq;
    const asked = get().current;
    if (get().status !== "ready") set({ status: "loading" });
    try {
      const team = await deps.api.team();
      if (mine !== seq || deps.user()?.id !== user.id) return;
      // A switch meanwhile started a newer read (seq); this answer is the workspace asked for.
      const changedRole = !!asked && asked.id === team.workspace.id && asked.role !== team.workspace.role;
      keep(user.id, team.workspace);
      set({ current: team.workspace, workspaces: team.workspaces, team, status: "ready", ...(changedRole ? { version: get().version + 1 } : {}) });
    } catch (err) {
      if (mine !== seq) return;
      if (err instanceof ApiError && err.status === 404 && asked && asked.id !== user.id) {
        fallBack(asked);
        return void refresh();
      }
      set({ status: get().workspaces.length ? "ready" : "error" });
    }
  }

  /** Acts in `workspace` from now on (kept for the next visit); the page on screen reads again. */
  function switchTo(workspace: Workspace) {
    const user = deps.user();
    if (!user || workspace.id === get().current?.id) return;
    keep(user.id, workspace);
    set((s) => ({ current: workspace, team: null, version: s.version + 1 }));
    void refresh();
  }

  /** The HTTP client heard a 404 for the chosen workspace: back to the user's own. */
  function refused() {
    const user = deps.user();
    const current = get().current;
    if (!user || !current || current.id === user.id) return;
    fallBack(current);
    void refresh();
  }

  /** Follows the signed-in user: their saved choice, then the list. */
  function applyUser(user: User | null) {
    if ((user?.id ?? null) === get().userId) return;
    seq++;
    if (!user) {
      clearWorkspaceInMemory();
      set({ ...initial, version: get().version + 1 });
      return;
    }
    const saved = readWorkspaceChoice(user.id);
    setWorkspaceChoice(saved);
    const current: Workspace = saved ? { id: saved.id, name: saved.name, ownerId: "", role: saved.role } : ownWorkspace(user);
    set({ userId: user.id, current, workspaces: [], team: null, status: "loading", version: get().version + 1 });
    void refresh();
  }

  return { refresh, switchTo, refused, applyUser };
}

const actions = createWorkspaceActions({
  api: teamApi,
  user: () => {
    const auth = authStore.getState();
    return auth.status === "authenticated" ? auth.user : null;
  },
  notify: (message) => toast({ variant: "destructive", title: message }),
});

export const refreshWorkspaces = actions.refresh;
export const switchWorkspace = actions.switchTo;

let started = false;
/** Starts following the signed-in user (idempotent): the signed-in layout calls it. */
export function startWorkspaces() {
  if (started) return;
  started = true;
  onWorkspaceRefused(actions.refused);
  // Removed, a role changed, ownership moved: the server says so on the user's own socket.
  startChatRealtime();
  onTeamChangedFrame(() => void actions.refresh());
  const follow = (auth: AuthState) => actions.applyUser(auth.status === "authenticated" ? auth.user : null);
  follow(authStore.getState());
  authStore.subscribe(follow);
  globalThis.addEventListener?.("focus", () => void actions.refresh());
}

/**
 * The caller's role in the workspace on screen. No workspace chosen (yet) means calls carry no
 * X-Workspace-Id and act in the user's own workspace, which they own.
 */
export const roleOf = (s: Pick<WorkspaceState, "current">): TeamRole => s.current?.role ?? "owner";

export function useWorkspaceRole(): TeamRole {
  return useWorkspace(roleOf);
}

/** Whether the caller's role in the workspace on screen allows `permission` (contract `can`). */
export function useCan(permission: TeamPermission): boolean {
  return useWorkspace((s) => can(roleOf(s), permission));
}
