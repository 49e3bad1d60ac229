/**
 * The workspace switcher in the top bar: the workspace every screen is in and the caller's role
 * there (both sizes), and a menu of the user's workspaces (GET /api/team's `workspaces`) with
 * "Manage team". Choosing one makes every call act in it (stores/workspace.ts); an assistant's
 * page belongs to the workspace it was opened in, so it gives way to the new workspace's list.
 */
import { Link, useLocation } from "wouter";
import { appRoutes, teamMessages, teamUi, type Workspace } from "../../../../contract";
import { toast } from "../../stores/toast";
import { switchWorkspace, useWorkspace } from "../../stores/workspace";
import { CheckIcon, ChevronDownIcon, UsersIcon } from "../ui/icons";
import { useMenuButton } from "../ui/use-menu-button";

const S = teamUi.switcher;
const roleName = (role: string) => teamMessages.roleNames[role] ?? role;
const itemClasses = "flex w-full items-center gap-2.5 rounded-md px-2.5 py-2 text-left text-sm text-fg outline-none hover:bg-subtle focus:bg-subtle";

export function WorkspaceSwitcher() {
  const current = useWorkspace((s) => s.current);
  const workspaces = useWorkspace((s) => s.workspaces);
  const [location, navigate] = useLocation();
  const { open, close, buttonProps, menuProps } = useMenuButton({ focusChecked: true });
  if (!current) return null;
  const list = workspaces.length ? workspaces : [current];

  const choose = (w: Workspace) => {
    close();
    if (w.id === current.id) return;
    switchWorkspace(w);
    toast({ variant: "success", description: S.switched(w.name) });
    if (location.startsWith(`${appRoutes.publicAssistants}/`)) navigate(appRoutes.publicAssistants);
  };

  return (
    <div className="relative min-w-0">
      <button
        {...buttonProps}
        className="flex h-9 max-w-[8.5rem] min-w-0 items-center gap-1.5 rounded-lg border border-line px-2 text-sm text-fg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-accent sm:max-w-[16rem] sm:px-2.5"
      >
        <UsersIcon size={16} className="shrink-0 text-muted max-sm:hidden" />
        {/* Its name is what it shows, after "Workspace:" (S.label). */}
        <span className="sr-only">{S.prefix} </span>
        <span className="min-w-0 truncate font-medium">{current.name}</span>{" "}
        <span className="shrink-0 rounded bg-subtle px-1.5 text-xs leading-5 text-muted">{roleName(current.role)}</span>
        <ChevronDownIcon size={15} className="shrink-0 text-muted" />
      </button>
      {open && (
        <div {...menuProps} aria-label={S.menuLabel} className="absolute left-0 z-40 mt-2 w-72 max-w-[calc(100vw-1.5rem)] animate-fade-in rounded-xl border border-line bg-surface p-1.5 shadow-lg">
          <p aria-hidden="true" className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-faint">
            {S.menuLabel}
          </p>
          <div role="group" aria-label={S.menuLabel} className="max-h-72 overflow-y-auto">
            {list.map((w) => (
              <button key={w.id} type="button" role="menuitemradio" aria-checked={w.id === current.id} tabIndex={-1} className={itemClasses} onClick={() => choose(w)}>
                <span className="min-w-0 flex-1">
                  <span className="block truncate">{w.name}</span>
                  <span className="block text-xs text-muted">{roleName(w.role)}</span>
                </span>
                {w.id === current.id && <CheckIcon size={16} className="shrink-0 text-accent-text" />}
              </button>
            ))}
          </div>
          <div className="mt-1 border-t border-line pt-1" role="none">
            <Link href={appRoutes.team} role="menuitem" tabIndex={-1} className={itemClasses} onClick={() => close(false)}>
              <UsersIcon size={16} className="text-muted" />
              {S.manageTeam}
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
