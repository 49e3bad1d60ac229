/**
 * The account's moments other tabs of this browser should hear of (a BroadcastChannel; nothing
 * leaves the browser): an e-mail verified in one tab marks it verified in the others, with a
 * short confirmation. Messages are parsed, never trusted as they come.
 */
import { z } from "zod";
import { appMessages } from "../../../contract";
import { authStore } from "../stores/auth";
import { toast } from "../stores/toast";

const CHANNEL = "tala-account";
const emailVerified = z.object({ type: z.literal("email-verified"), userId: z.string().min(1).max(200) });

/** Tells the other tabs that `userId`'s e-mail address is verified (no-op where BroadcastChannel is missing). */
export function announceEmailVerified(userId: string) {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: "email-verified", userId } satisfies z.infer<typeof emailVerified>);
  channel.close();
}

/** Listens for the other tabs' news for the page's lifetime (called once, at start). */
export function startAccountSync() {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    const news = emailVerified.safeParse(event.data);
    if (!news.success) return;
    const { user, setUser } = authStore.getState();
    if (!user || user.id !== news.data.userId || user.isEmailVerified) return;
    setUser({ ...user, isEmailVerified: true });
    toast({ variant: "success", description: appMessages.emailVerifiedElsewhere });
  };
}
