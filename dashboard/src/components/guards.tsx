/**
 * Access guards (spec section 2). While authentication resolves they show 'Loading...'; a visitor
 * who may not see the page is sent to /login with the location remembered, and comes back to it
 * after signing in.
 */
import { useEffect, type ReactNode } from "react";
import { useLocation, useSearch } from "wouter";
import { loginUrlFor, rememberReturnTo } from "../lib/return-to";
import { useAuth } from "../stores/auth";
import { LoadingScreen } from "./ui/spinner";

function RedirectToLogin() {
  const [location, navigate] = useLocation();
  const search = useSearch();
  useEffect(() => {
    const from = search ? `${location}?${search}` : location;
    rememberReturnTo(from);
    navigate(loginUrlFor(from), { replace: true });
  }, [location, search, navigate]);
  return <LoadingScreen />;
}

/** `/app/new-chat?guest=1` (the home page's "Try it now"): a visitor with no session starts one as a guest. */
function StartGuest() {
  const startGuest = useAuth((s) => s.startGuest);
  const [location, navigate] = useLocation();
  useEffect(() => {
    startGuest();
    navigate(location, { replace: true });
  }, [startGuest, navigate, location]);
  return <LoadingScreen />;
}

/** The /app area: signed-in users and guests (guests may chat). */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = useAuth((s) => s.status);
  const search = useSearch();
  if (status === "loading") return <LoadingScreen />;
  if (status === "anonymous") return new URLSearchParams(search).get("guest") === "1" ? <StartGuest /> : <RedirectToLogin />;
  return <>{children}</>;
}

/** Pages for registered users only (projects, public assistants, settings). */
export function RequireAccount({ children }: { children: ReactNode }) {
  const status = useAuth((s) => s.status);
  if (status === "loading") return <LoadingScreen />;
  if (status !== "authenticated") return <RedirectToLogin />;
  return <>{children}</>;
}
