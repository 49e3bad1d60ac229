import { describe, expect, it } from "vitest";
import { chooseStrategy } from "./routing";

const origin = "https://tala.example";
const precached = new Set(["/assets/app-1.js", "/icons/icon-192.png", "/manifest.webmanifest"]);
const strategy = (path: string, mode = "navigate", method = "GET", base = origin) =>
  chooseStrategy({ method, url: `${base}${path}`, mode }, origin, (p) => precached.has(p));

describe("chooseStrategy", () => {
  it("never handles /api or /parties, whatever the request", () => {
    for (const path of ["/api/auth/me", "/api", "/api/public-assistants/1/chats?page=2", "/parties/chat/room", "/parties"]) {
      expect(strategy(path, "cors")).toBe("network");
      expect(strategy(path, "navigate")).toBe("network");
    }
  });

  it("leaves other methods, other origins and the worker script to the network", () => {
    expect(strategy("/app", "navigate", "POST")).toBe("network");
    expect(strategy("/assets/app-1.js", "no-cors", "GET", "https://cdn.example")).toBe("network");
    expect(strategy("/service-worker.js", "same-origin")).toBe("network");
  });

  it("answers dashboard navigations with the app shell", () => {
    for (const path of ["/app", "/app/new-chat", "/app/projects/42", "/login", "/register", "/reset-password?code=1", "/verify-email"]) {
      expect(strategy(path)).toBe("app-shell");
    }
  });

  it("answers other navigations network first", () => {
    for (const path of ["/", "/blog", "/blog/3", "/ai-morocco", "/faq", "/unknown"]) expect(strategy(path)).toBe("page");
  });

  it("serves precached files from the cache, and nothing else", () => {
    expect(strategy("/assets/app-1.js", "cors")).toBe("precached");
    expect(strategy("/manifest.webmanifest", "cors")).toBe("precached");
    expect(strategy("/assets/other.js", "cors")).toBe("network");
    expect(strategy("/widget.js", "no-cors")).toBe("network");
  });
});
