/** The product's routes (spec section 2), shared by the worker's fallback and the dashboard router. */

/** Pages of the dashboard single-page app: the worker serves its shell for these. */
export const dashboardAuthPaths = ["/login", "/register", "/verify-email", "/forgot-password", "/reset-password"] as const;
export const appBasePath = "/app";

export const appRoutes = {
  root: "/app",
  newChat: "/app/new-chat",
  history: "/app/history",
  projects: "/app/projects",
  project: (id: string) => `/app/projects/${encodeURIComponent(id)}`,
  publicAssistants: "/app/public-assistants",
  /** One assistant's own page: its tabs (Knowledge with websites, Insights). */
  publicAssistant: (id: string, tab?: string) =>
    `/app/public-assistants/${encodeURIComponent(id)}${tab ? `?tab=${encodeURIComponent(tab)}` : ""}`,
  settings: "/app/settings",
  /** The workspace's members, invitations, ownership and audit log (`?tab=audit`). */
  team: "/app/team",
  /** Accepting an invitation: `?code=` from the e-mail's link, or the code typed by hand. */
  invite: "/app/invite",
  inviteWithCode: (code: string) => `/app/invite?code=${encodeURIComponent(code)}`,
  /** One conversation opened in an assistant's Inbox tab (the owner's e-mail of a visitor asking for a person links it). */
  inboxConversation: (id: string, sessionId: string) =>
    `/app/public-assistants/${encodeURIComponent(id)}?tab=inbox&session=${encodeURIComponent(sessionId)}`,
  /** One conversation opened in an assistant's History tab (the owner's e-mail of a new lead links it). */
  historyConversation: (id: string, sessionId: string) =>
    `/app/public-assistants/${encodeURIComponent(id)}?tab=history&session=${encodeURIComponent(sessionId)}`,
} as const;

/** Navigation items, in the spec's order. */
export const navItems = [
  { label: "New Chat", path: appRoutes.newChat },
  { label: "History", path: appRoutes.history },
  { label: "Projects", path: appRoutes.projects },
  { label: "Public Assistants", path: appRoutes.publicAssistants },
  { label: "Team", path: appRoutes.team },
  { label: "Settings", path: appRoutes.settings },
] as const;

export const publicRoutes = {
  home: "/",
  blog: "/blog",
  blogPost: (id: string | number) => `/blog/${id}`,
  login: "/login",
  register: "/register",
  verifyEmail: "/verify-email",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  privacyPolicy: "/privacy-policy",
  terms: "/terms",
  faq: "/faq",
} as const;

/** Footer links, in order (spec section 2 "Navigation"); the store badge and credit line sit beside them. */
export const footerLinks = [
  { label: "Privacy Policy", path: publicRoutes.privacyPolicy },
  { label: "Terms", path: publicRoutes.terms },
  { label: "FAQ", path: publicRoutes.faq },
  { label: "Blog", path: publicRoutes.blog },
] as const;

/** Built marketing pages the worker and the service worker answer with (marketing/build.mjs writes them). */
export const staticPages = {
  /** Answered with status 404 for an unknown /blog/{id}. */
  notFound: "/404",
  /** What the service worker shows for a page it cannot reach or find in its cache. */
  offline: "/offline",
} as const;

/** Fixed-id blog posts (spec section 2). */
export const fixedBlogPosts = { "/ai-morocco": 3, "/ai": 4, "/ia-maroc": 5, "/ia": 6 } as const;

/** True when the dashboard shell should answer this path. */
export function isDashboardPath(pathname: string): boolean {
  if (pathname === appBasePath || pathname.startsWith(`${appBasePath}/`)) return true;
  return (dashboardAuthPaths as readonly string[]).includes(pathname.replace(/\/$/, ""));
}
