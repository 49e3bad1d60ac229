/** The layout of /app (spec section 2 "Navigation"): top bar, side panel, main content, footer. */
import { Fragment, useEffect, type ReactNode } from "react";
import { useLocation } from "wouter";
import { appRoutes } from "../../../../contract";
import { useAuth } from "../../stores/auth";
import { loadInboxSummary, startInboxAlerts } from "../../stores/inbox";
import { startWorkspaces, useWorkspace } from "../../stores/workspace";
import { Footer } from "./footer";
import { SidePanel } from "./side-panel";
import { TopBar } from "./top-bar";
import { VerifyEmailBanner } from "./verify-banner";

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[200] focus:rounded-lg focus:bg-surface focus:px-3 focus:py-2 focus:text-sm focus:shadow-lg"
    >
      Skip to content
    </a>
  );
}

/** The chat screen fills the window (its messages scroll, the composer stays above the slim footer). */
export const isFullHeightPath = (location: string) => location === appRoutes.newChat || location === appRoutes.history;

export function AppLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const fill = isFullHeightPath(location);
  // A signed-in owner's inbox badge and alerts, over the tab's one chat connection.
  const signedIn = useAuth((s) => s.status === "authenticated");
  useEffect(() => {
    if (signedIn) {
      startWorkspaces();
      startInboxAlerts();
    }
  }, [signedIn]);
  // A switch of workspace remounts the page, which reads its data again (the chat is the user's own: it stays).
  const workspaceVersion = useWorkspace((s) => s.version);
  // The navigation's inbox badge counts the workspace on screen.
  useEffect(() => {
    if (signedIn && workspaceVersion > 0) void loadInboxSummary();
  }, [signedIn, workspaceVersion]);
  return (
    <div className={`flex flex-col bg-canvas text-fg ${fill ? "h-dvh overflow-hidden" : "min-h-dvh"}`}>
      <SkipLink />
      <TopBar />
      <VerifyEmailBanner />
      <div className={`flex flex-1 ${fill ? "min-h-0" : ""}`}>
        <SidePanel />
        <main id="main" tabIndex={-1} className={`flex min-w-0 flex-1 flex-col focus:outline-none ${fill ? "min-h-0" : ""}`}>
          <Fragment key={fill ? "chat" : workspaceVersion}>{children}</Fragment>
        </main>
      </div>
      <Footer compact={fill} />
    </div>
  );
}
