/** The navigation items (spec order: New Chat, History, Projects, Public Assistants, Settings). */
import { Link, useLocation } from "wouter";
import { navItems } from "../../../../contract";
import { BotIcon, ChatPlusIcon, FolderIcon, HistoryIcon, SettingsIcon } from "../ui/icons";

const icons: Record<(typeof navItems)[number]["path"], typeof ChatPlusIcon> = {
  "/app/new-chat": ChatPlusIcon,
  "/app/history": HistoryIcon,
  "/app/projects": FolderIcon,
  "/app/public-assistants": BotIcon,
  "/app/settings": SettingsIcon,
};

/** True when `path` is the current route or one of its children (a project under Projects). */
export function isActivePath(location: string, path: string): boolean {
  return location === path || location.startsWith(`${path}/`);
}

export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  return (
    <ul className="flex flex-col gap-0.5">
      {navItems.map((item) => {
        const active = isActivePath(location, item.path);
        const Icon = icons[item.path];
        return (
          <li key={item.path}>
            <Link
              href={item.path}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`flex h-9 items-center gap-3 rounded-lg px-3 text-sm transition-colors ${
                active ? "bg-accent-soft font-medium text-accent-text" : "text-muted hover:bg-subtle hover:text-fg"
              }`}
            >
              <Icon size={17} />
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
