/**
 * The dashboard's router (spec section 2). Sign-in pages at the top level; /app/* behind the access
 * guard and the common layout; /app redirects to /app/new-chat; an unknown /app/... address shows
 * the app's own not-found page inside its frame; any other path leaves the dashboard for / (a full
 * page load: / is the marketing site, not this app). Pages load lazily.
 */
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { Redirect, Route, Switch } from "wouter";
import { appRoutes, publicRoutes } from "../../contract";
import { RequireAccount, RequireSession } from "./components/guards";
import { AppLayout } from "./components/layout/app-layout";
import { PageSpinner } from "./components/ui/spinner";
import { Toaster } from "./components/ui/toaster";

const pages = {
  login: () => import("./pages/auth/login"),
  register: () => import("./pages/auth/register"),
  verifyEmail: () => import("./pages/auth/verify-email"),
  forgotPassword: () => import("./pages/auth/forgot-password"),
  resetPassword: () => import("./pages/auth/reset-password"),
  chat: () => import("./pages/app/chat"),
  projects: () => import("./pages/app/projects"),
  project: () => import("./pages/app/project"),
  publicAssistants: () => import("./pages/app/public-assistants"),
  publicAssistant: () => import("./pages/app/public-assistant"),
  settings: () => import("./pages/app/settings"),
  team: () => import("./pages/app/team"),
  invite: () => import("./pages/app/invite"),
  notFound: () => import("./pages/app/not-found"),
};
const LoginPage = lazy(pages.login);
const RegisterPage = lazy(pages.register);
const VerifyEmailPage = lazy(pages.verifyEmail);
const ForgotPasswordPage = lazy(pages.forgotPassword);
const ResetPasswordPage = lazy(pages.resetPassword);
const ChatPage = lazy(pages.chat);
const ProjectsPage = lazy(pages.projects);
const ProjectPage = lazy(pages.project);
const PublicAssistantsPage = lazy(pages.publicAssistants);
const PublicAssistantPage = lazy(pages.publicAssistant);
const SettingsPage = lazy(pages.settings);
const TeamPage = lazy(pages.team);
const InvitePage = lazy(pages.invite);
const NotFoundPage = lazy(pages.notFound);

/**
 * Once the first page is on screen and the browser is idle, fetch the other pages' (small) chunks
 * so later navigation does not wait on the network.
 */
function usePrefetchPages() {
  useEffect(() => {
    const prefetch = () => Object.values(pages).forEach((load) => void load().catch(() => {}));
    if ("requestIdleCallback" in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(prefetch, 1500);
    return () => clearTimeout(id);
  }, []);
}

/** A path outside /app that is no sign-in page → / (spec section 2), outside this single-page app. */
function LeaveDashboard() {
  useEffect(() => {
    window.location.replace(publicRoutes.home);
  }, []);
  return <PageSpinner />;
}

function FullPageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="flex min-h-dvh">
          <PageSpinner />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/** Everything under /app: guard, layout, then the page (a spinner inside the layout while it loads). */
function AppArea() {
  return (
    <RequireSession>
      <AppLayout>
        <Suspense fallback={<PageSpinner />}>
          <Switch>
            {/* One chat screen for both paths: the same element, so switching keeps it mounted. */}
            <Route path={appRoutes.newChat}>
              <ChatPage />
            </Route>
            <Route path={appRoutes.history}>
              <ChatPage />
            </Route>
            <Route path={appRoutes.projects}>
              <RequireAccount>
                <ProjectsPage />
              </RequireAccount>
            </Route>
            <Route path="/app/projects/:id">
              <RequireAccount>
                <ProjectPage />
              </RequireAccount>
            </Route>
            <Route path={appRoutes.publicAssistants}>
              <RequireAccount>
                <PublicAssistantsPage />
              </RequireAccount>
            </Route>
            <Route path="/app/public-assistants/:id">
              <RequireAccount>
                <PublicAssistantPage />
              </RequireAccount>
            </Route>
            <Route path={appRoutes.team}>
              <RequireAccount>
                <TeamPage />
              </RequireAccount>
            </Route>
            <Route path={appRoutes.invite}>
              <RequireAccount>
                <InvitePage />
              </RequireAccount>
            </Route>
            <Route path={appRoutes.settings}>
              <RequireAccount>
                <SettingsPage />
              </RequireAccount>
            </Route>
            <Route path="/app/">
              <Redirect to={appRoutes.newChat} replace />
            </Route>
            <Route>
              <NotFoundPage />
            </Route>
          </Switch>
        </Suspense>
      </AppLayout>
    </RequireSession>
  );
}

export function App() {
  usePrefetchPages();
  return (
    <>
      <FullPageSuspense>
        <Switch>
          <Route path={publicRoutes.login} component={LoginPage} />
          <Route path={publicRoutes.register} component={RegisterPage} />
          <Route path={publicRoutes.verifyEmail} component={VerifyEmailPage} />
          <Route path={publicRoutes.forgotPassword} component={ForgotPasswordPage} />
          <Route path={publicRoutes.resetPassword} component={ResetPasswordPage} />
          <Route path={appRoutes.root}>
            <Redirect to={appRoutes.newChat} replace />
          </Route>
          <Route path="/app/*">
            <AppArea />
          </Route>
          <Route>
            <LeaveDashboard />
          </Route>
        </Switch>
      </FullPageSuspense>
      <Toaster />
    </>
  );
}
