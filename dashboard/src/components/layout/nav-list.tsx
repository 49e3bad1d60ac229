/**
 * The navigation items (spec order: New Chat, History, Projects, Public Assistants, Settings).
 * A guest sees every item; those that need an account say so and lead to registration (the page
 * is remembered, so the new account lands on it), instead of silently sending the guest to sign in.
 */
import { useId } from "react";
import { Link, useLocation } from "wouter";
import { appMessages, appRoutes, inboxUi, navItems, publicRoutes } from "../../../../contract";
import { rememberReturnTo } from "../../lib/return-to";
import { useAuth } from "../../stores/auth";
import { useInboxSummary } from "../../stores/inbox";
import { BotIcon, ChatPlusIcon, FolderIcon, HistoryIcon, LockIcon, SettingsIcon, UsersIcon } from "../ui/icons";

const icons: Record<(typeof navItems)[number]["path"], typeof ChatPlusIcon> = {
  "/app/new-chat": ChatPlusIcon,
  "/app/history": HistoryIcon,
  "/app/projects": FolderIcon,
  "/app/public-assistants": BotIcon,
  "/app/team": UsersIcon,
  "/app/settings": SettingsIcon,
};

/** The pages a guest cannot use (RequireAccount). */
const accountOnly = new Set<string>([appRoutes.projects, appRoutes.publicAssistants, appRoutes.team, appRoutes.settings]);

/** True when `path` is the current route or one of its children (a project under Projects). */
export function isActivePath(location: string, path: string): boolean {
  return location === path || location.startsWith(`${path}/`);
}

export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  const isGuest = useAuth((s) => s.status === "guest");
  const hintId = useId();
  // Conversations needing a person across the owner's assistants.
  const needsPerson = useInboxSummary((s) => s.total);
  return (
    <>
      <ul className="flex flex-col gap-0.5">
        {navItems.map((item) => {
          const active = isActivePath(location, item.path);
          const Icon = icons[item.path];
          const locked = isGuest && accountOnly.has(item.path);
          return (
            <li key={item.path}>
              <Link
                href={locked ? publicRoutes.register : item.path}
                onClick={() => {
                  if (locked) rememberReturnTo(item.path);
                  onNavigate?.();
                }}
                aria-current={active ? "page" : undefined}
                aria-describedby={locked ? hintId : undefined}
                className={`flex h-9 items-center gap-3 rounded-lg px-3 text-sm whitespace-nowrap transition-colors ${
                  active ? "bg-accent-soft font-medium text-accent-text" : "text-muted hover:bg-subtle hover:text-fg"
                }`}
              >
                <Icon size={17} />
                {item.label}
                {item.path === appRoutes.publicAssistants && needsPerson > 0 && !locked ? (
                  <span className="relative ml-auto min-w-5 shrink-0 rounded-full bg-warning-soft px-1.5 text-center text-xs leading-5 font-semibold text-warning-fg ring-1 ring-warning-line tabular-nums">
                    <span aria-hidden="true">{needsPerson}</span>
                    <span className="sr-only">{inboxUi.badge(needsPerson)}</span>
                  </span>
                ) : null}
                {locked && (
                  <span className="ml-auto shrink-0 text-faint">
                    <LockIcon size={13} />
                    <span className="sr-only">{appMessages.needsAccount}</span>
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
      {isGuest && (
        <p id={hintId} className="flex items-center gap-1.5 px-3 pt-3 text-xs text-muted">
          <LockIcon size={12} />
          {appMessages.needsAccountHint}.
        </p>
      )}
    </>
  );
}
