/**
 * Inlined at the end of <body>: the Theme control, following the system while "system" is chosen,
 * the offline page's retry button, and service worker registration (scope /). Kept tiny on purpose.
 */
import type { Theme } from "../../../contract/constants";

// Filled in from the contract by marketing/src/build.ts (importing the contract would bundle all of it:
// esbuild keeps its objects, since property reads may have side effects).
declare const __THEME_KEY__: string;
declare const __THEME_DEFAULT__: Theme;
declare const __SW_PATH__: string;
declare const __SW_SCOPE__: string;
declare const __TOKEN_KEY__: string;
declare const __FIREBASE_TOKEN_KEY__: string;
declare const __LOGIN_PATH__: string;

const root = document.documentElement;
const dark = matchMedia("(prefers-color-scheme: dark)");

function read(): Theme {
  try {
    const stored = localStorage.getItem(__THEME_KEY__);
    if (stored === "light" || stored === "dark" || stored === "system") return stored;
  } catch {
    // Blocked storage: use the default.
  }
  return __THEME_DEFAULT__;
}

function apply(choice: Theme) {
  root.classList.remove("light", "dark");
  root.classList.add(choice === "system" ? (dark.matches ? "dark" : "light") : choice);
}

// The top bar's select, and the footer's on phones (where the top bar has no room for it).
// (A structural type: the DOM and Workers type libraries disagree on HTMLSelectElement.)
interface SelectLike {
  value: string;
  readonly parentElement: { setAttribute(name: string, value: string): void } | null;
  addEventListener(type: "change", listener: () => void): void;
}
const selects = Array.from(document.querySelectorAll(".theme-select")) as unknown as SelectLike[];
function show(choice: Theme) {
  for (const select of selects) {
    select.value = choice;
    select.parentElement?.setAttribute("data-choice", choice);
  }
}
show(read());
for (const select of selects) {
  select.addEventListener("change", () => {
    const choice = select.value as Theme;
    try {
      localStorage.setItem(__THEME_KEY__, choice);
    } catch {
      // Still apply it for this page.
    }
    show(choice);
    apply(choice);
  });
}
dark.addEventListener("change", () => {
  if (read() === "system") apply("system");
});
// Another tab (or the dashboard) changed the theme.
addEventListener("storage", (e) => {
  if (e.key === __THEME_KEY__) {
    show(read());
    apply(read());
  }
});

for (const button of document.querySelectorAll("[data-reload]")) {
  button.addEventListener("click", () => location.reload());
}

// The home page's live demo: on click, ask for the local demo assistant's key, then load the widget
// with it and open it. Deployed sites have no demo (the endpoint answers 404): say so instead.
const demo = document.getElementById("demo-start");
const note = document.getElementById("demo-note");
if (demo && note) {
  const tala = () => (window as unknown as { Tala?: { open(): void } }).Tala;
  demo.addEventListener("click", () => {
    if (tala()) return tala()!.open();
    demo.setAttribute("disabled", "");
    note.textContent = "Loading the demo…";
    fetch("/api/dev/demo-assistant")
      .then((res) => (res.ok ? (res.json() as Promise<{ apiKey: string }>) : Promise.reject(res.status)))
      .then(({ apiKey }) => {
        const script = document.createElement("script");
        script.src = "/widget.js";
        script.async = true;
        script.dataset.assistantKey = apiKey;
        script.dataset.host = location.origin;
        script.dataset.open = "true";
        document.body.appendChild(script);
        note.textContent = "Tala Guide is open in the corner of the page.";
      })
      .catch((status) => {
        note.textContent =
          status === 404 ? "The live demo runs on local installs; create your own assistant to try Tala." : "The demo could not load. Please try again.";
      })
      .finally(() => demo.removeAttribute("disabled"));
  });
}

// Signed in to the dashboard in this browser: the top bar shows the user's menu instead of Sign In
// and Get Started, once the server confirms the session (an expired token keeps the signed-out bar).
function stored(key: string): string | null {
  try {
    return localStorage.getItem(key) || sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
const firebaseToken = stored(__FIREBASE_TOKEN_KEY__);
const talaToken = stored(__TOKEN_KEY__);
const authorization = firebaseToken ? `Bearer ${firebaseToken}` : talaToken ? `Token ${talaToken}` : "";
const account = document.querySelector(".account") as HTMLDetailsElement | null;
if (authorization && account) {
  fetch("/api/auth/me", { headers: { authorization } })
    .then((res) => (res.ok ? (res.json() as Promise<{ user: { firstName: string } }>) : null))
    .then((body) => {
      if (!body) return;
      const name = body.user.firstName.trim();
      if (name) account.querySelector(".account-name")!.textContent = name;
      for (const link of document.querySelectorAll(".signed-out")) link.setAttribute("hidden", "");
      account.hidden = false;
    })
    .catch(() => {
      // Offline or the server is down: the signed-out bar stays.
    });
  const close = () => {
    account.open = false;
  };
  document.addEventListener("click", (e) => {
    if (!account.contains(e.target as Node)) close();
  });
  account.addEventListener("keydown", (e) => {
    if ((e as KeyboardEvent).key === "Escape" && account.open) {
      close();
      (account.querySelector("summary") as HTMLElement).focus();
    }
  });
  account.querySelector(".account-logout")!.addEventListener("click", () => {
    const leave = () => {
      for (const key of [__TOKEN_KEY__, __FIREBASE_TOKEN_KEY__]) {
        try {
          localStorage.removeItem(key);
          sessionStorage.removeItem(key);
        } catch {
          // Blocked storage: nothing was kept there.
        }
      }
      location.href = __LOGIN_PATH__;
    };
    // As in the dashboard: the server is told, and its failures are ignored.
    fetch("/api/auth/logout", { method: "POST", headers: { authorization } }).then(leave, leave);
  });
}

if ("serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker.register(__SW_PATH__, { scope: __SW_SCOPE__ }).catch(() => {
      // Without a service worker the site still works online; nothing to tell the reader.
    });
  });
}
