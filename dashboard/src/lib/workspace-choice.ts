/**
 * The workspace the dashboard acts in, as the HTTP client needs it: its id is sent as
 * `X-Workspace-Id` (contract teamLimits.workspaceHeader) on every API call. Kept in memory and in
 * local storage as `{ userId, id, role }`, so a reload stays in the same workspace; a choice saved
 * by another account of this browser is never read (its header would name someone else's
 * workspace). No choice: no header (the server then acts in the user's own).
 */
import { storageKeys, teamRoles, type TeamRole } from "../../../contract";
import { readItem, removeItem, writeItem } from "./storage";

export interface WorkspaceChoice {
  userId: string;
  id: string;
  /** The caller's role there when it was chosen (shown until GET /api/team says again). */
  role: TeamRole;
  name: string;
}

let current: WorkspaceChoice | null = null;

/** Parses a stored choice; anything else (damaged, another shape) is no choice. */
export function parseWorkspaceChoice(raw: string | null): WorkspaceChoice | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<WorkspaceChoice> | null;
    if (!v || typeof v !== "object") return null;
    if (typeof v.userId !== "string" || typeof v.id !== "string" || typeof v.name !== "string") return null;
    if (!v.userId || !v.id || v.id.length > 100) return null;
    if (!(teamRoles as readonly string[]).includes(v.role as string)) return null;
    return { userId: v.userId, id: v.id, role: v.role as TeamRole, name: v.name.slice(0, 200) };
  } catch {
    return null;
  }
}

/** The choice of `userId` saved in this browser (null: none, or another account's). */
export function readWorkspaceChoice(userId: string): WorkspaceChoice | null {
  const saved = parseWorkspaceChoice(readItem("local", storageKeys.workspace));
  return saved && saved.userId === userId ? saved : null;
}

/** Sets the workspace calls act in (null: the user's own) and keeps it for the next visit. */
export function setWorkspaceChoice(choice: WorkspaceChoice | null): void {
  current = choice;
  if (choice) writeItem("local", storageKeys.workspace, JSON.stringify(choice));
  else removeItem("local", storageKeys.workspace);
}

/** Forgets the choice in memory only (signed out: the next sign-in of the same user finds it again). */
export function clearWorkspaceInMemory(): void {
  current = null;
}

export function workspaceChoice(): WorkspaceChoice | null {
  return current;
}

/** The value of `X-Workspace-Id` for the next call, or null for none (the user's own workspace). */
export function workspaceHeaderValue(): string | null {
  return current?.id ?? null;
}
