import { describe, expect, it, vi } from "vitest";
import { createInstallPromptStore } from "./install-prompt";

function promptEvent(outcome: "accepted" | "dismissed") {
  const event = new Event("beforeinstallprompt", { cancelable: true }) as Event & {
    prompt: () => Promise<void>;
    userChoice: Promise<{ outcome: string }>;
  };
  event.prompt = vi.fn(async () => undefined);
  event.userChoice = Promise.resolve({ outcome });
  return event;
}

describe("install prompt store", () => {
  it("offers installation once the browser fires beforeinstallprompt, and keeps its infobar away", () => {
    const target = new EventTarget();
    const store = createInstallPromptStore(target, () => false);
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.getSnapshot().canInstall).toBe(false);
    const event = promptEvent("accepted");
    target.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(store.getSnapshot()).toEqual({ canInstall: true, installed: false });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("prompts, and disappears once the user accepts", async () => {
    const target = new EventTarget();
    const store = createInstallPromptStore(target, () => false);
    const event = promptEvent("accepted");
    target.dispatchEvent(event);
    expect(await store.install()).toBe("accepted");
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toEqual({ canInstall: false, installed: true });
  });

  it("disappears after a dismissal too (the event cannot be replayed) until the browser offers again", async () => {
    const target = new EventTarget();
    const store = createInstallPromptStore(target, () => false);
    target.dispatchEvent(promptEvent("dismissed"));
    expect(await store.install()).toBe("dismissed");
    expect(store.getSnapshot().canInstall).toBe(false);
    expect(await store.install()).toBe("unavailable");
    target.dispatchEvent(promptEvent("accepted"));
    expect(store.getSnapshot().canInstall).toBe(true);
  });

  it("disappears on appinstalled, and never shows when already standalone", () => {
    const target = new EventTarget();
    const store = createInstallPromptStore(target, () => false);
    target.dispatchEvent(promptEvent("accepted"));
    target.dispatchEvent(new Event("appinstalled"));
    expect(store.getSnapshot()).toEqual({ canInstall: false, installed: true });

    const standaloneTarget = new EventTarget();
    const standalone = createInstallPromptStore(standaloneTarget, () => true);
    standaloneTarget.dispatchEvent(promptEvent("accepted"));
    expect(standalone.getSnapshot()).toEqual({ canInstall: false, installed: true });
  });
});
