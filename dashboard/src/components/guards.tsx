/**
 * Access guards (spec section 2). While authentication resolves they show 'Loading...' in the
 * app's frame (its bar, navigation and a page of skeletons; inside the layout, the page's
 * skeleton only), not a blank screen; a visitor
 * who may not see the page is sent to /login with the location remembered, and comes back to it
 * after signing in.
 */
import { useEffect, type ReactNode } from "react";
import { useLocation, useSearch } from "wouter";
import { loginUrlFor, rememberReturnTo } from "../lib/return-to";
import { useAuth } from "../stores/auth";
import { AppFrame, PageSkeleton } from "./layout/app-frame";

function RedirectToLogin({ inLayout = false }: { inLayout?: boolean }) {
  const [location, navigate] = useLocation();
  const search = useSearch();
  useEffect(() => {
    const from = search ? `${location}?${search}` : location;
    rememberReturnTo(from);
    navigate(loginUrlFor(from), { replace: true });
  }, [location, search, navigate]);
  return inLayout ? <PageSkeleton /> : <AppFrame />;
}

/** `/app/new-chat?guest=1` (the home page's "Try it now"): a visitor with no session starts one as a guest. */
function StartGuest() {
  const startGuest = useAuth((s) => s.startGuest);
  const [location, navigate] = useLocation();
  useEffect(() => {
    startGuest();
    navigate(location, { replace: true });
  }, [startGuest, navigate, location]);
  return <AppFrame />;
}

/** The /app area: signed-in users and guests (guests may chat). */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useAuth((s) => s.status);
  const search = useSearch();
  if (status === "loading") return <AppFrame />;
  if (status === "anonymous") return new URLSearchParams(search).get("guest") === "1" ? <StartGuest /> : <RedirectToLogin />;
  return <>{children}</>;
}

/** Pages for registered users only (projects, public assistants, settings). */
export function RequireAccount({ children }: { children: ReactNode }) {
  const status = useAuth((s) => s.status);
  if (status === "loading") return <PageSkeleton />;
  if (status !== "authenticated") return <RedirectToLogin inLayout />;
  return <>{children}</>;
}
