/**
 * The owner's inbox across their assistants: the navigation badge (conversations needing a person,
 * GET /api/inbox/summary at start, on focus, and again after every `inbox` handoff frame), and the
 * alert on a new request: a short sound (WebAudio, no asset) and a browser notification when the
 * owner allowed them (asked from a button in the Inbox, never on load); clicking it opens the
 * conversation. Frames come over the chat's own connection (chat-realtime.ts onInboxFrame), which
 * `startInboxAlerts` starts for a signed-in user.
 */
import { create } from "zustand";
import { navigate } from "wouter/use-browser-location";
import { appRoutes, inboxUi, type InboxFrameData, type InboxSummaryResponse } from "../../../contract";
import { inboxApi } from "../lib/inbox-api";
import { authStore, type AuthState } from "./auth";
import { onInboxFrame, startChatRealtime } from "./chat-realtime";

export type NotificationState = NotificationPermission | "unsupported";

interface InboxSummaryState {
  /** Assistant id → conversations needing a person; empty until read. */
  needsPerson: Record<string, number>;
  names: Record<string, string>;
  total: number;
  notifications: NotificationState;
}

export const useInboxSummary = create<InboxSummaryState>()(() => ({ needsPerson: {}, names: {}, total: 0, notifications: notificationState() }));

function notificationState(): NotificationState {
  const N = (globalThis as { Notification?: typeof Notification }).Notification;
  return N ? N.permission : "unsupported";
}

export function applySummary(summary: InboxSummaryResponse) {
  const needsPerson: Record<string, number> = {};
  const names: Record<string, string> = {};
  for (const a of summary.assistants) {
    needsPerson[a.assistantId] = a.needsPerson;
    names[a.assistantId] = a.name;
  }
  useInboxSummary.setState({ needsPerson, names, total: summary.assistants.reduce((n, a) => n + a.needsPerson, 0) });
}

let loadSeq = 0;
/** Reads the summary again; a failure keeps the badge as it was (it is not worth a toast). */
export async function loadInboxSummary(): Promise<void> {
  const seq = ++loadSeq;
  try {
    const summary = await inboxApi.summary();
    if (seq === loadSeq && isOwner(authStore.getState())) applySummary(summary);
  } catch {
    // The next focus or frame reads it again.
  }
}

let summaryTimer: ReturnType<typeof setTimeout> | undefined;
function reloadSoon() {
  clearTimeout(summaryTimer);
  summaryTimer = setTimeout(() => void loadInboxSummary(), 300);
}

// ---- the alert: sound and notification ---------------------------------------------------------

let audio: AudioContext | null = null;

/** Two short tones, generated (no sound file). Silent when the browser has no WebAudio or blocks it. */
export function playRequestSound() {
  try {
    const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    const ctx = audio;
    if (ctx.state === "suspended") void ctx.resume().catch(() => undefined);
    const start = ctx.currentTime;
    [880, 1175].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      const t = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.14);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.15);
    });
  } catch {
    // No sound is no failure.
  }
}

/** Asks for permission to notify (from the Inbox's visible button only). */
export async function requestNotifications(): Promise<NotificationState> {
  const N = (globalThis as { Notification?: typeof Notification }).Notification;
  if (!N) return "unsupported";
  try {
    const result = await N.requestPermission();
    useInboxSummary.setState({ notifications: result });
    return result;
  } catch {
    return notificationState();
  }
}

/** The address that opens a conversation in its assistant's Inbox. */
export const conversationHref = (assistantId: string, sessionId: string) => appRoutes.inboxConversation(assistantId, sessionId);

function notify(frame: InboxFrameData) {
  const N = (globalThis as { Notification?: typeof Notification }).Notification;
  if (!N || N.permission !== "granted") return;
  try {
    const name = useInboxSummary.getState().names[frame.assistantId] ?? "";
    const n = new N(inboxUi.notifications.title(name), { body: inboxUi.notifications.body(frame.conversation?.title ?? ""), tag: `inbox-${frame.sessionId}` });
    n.onclick = () => {
      globalThis.focus?.();
      navigate(conversationHref(frame.assistantId, frame.sessionId));
      n.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the sound and badge remain.
  }
}

/** Requests already alerted (session and request time), so a repeated frame does not ring twice. */
const alerted = new Set<string>();

export function onInboxAlertFrame(frame: InboxFrameData) {
  if (frame.kind !== "handoff") return;
  reloadSoon();
  const handoff = frame.conversation?.handoff;
  if (handoff?.state !== "requested") return;
  const key = `${frame.sessionId}:${handoff.requestedAt ?? ""}`;
  if (alerted.has(key)) return;
  if (alerted.size > 500) alerted.clear();
  alerted.add(key);
  playRequestSound();
  notify(frame);
}

// ---- starting ------------------------------------------------------------------------------------

const isOwner = (auth: AuthState) => auth.status === "authenticated" && !!auth.user;
let started = false;
let owner: string | null = null;

function applyAuth(auth: AuthState) {
  const next = isOwner(auth) ? auth.user!.id : null;
  if (next === owner) return;
  owner = next;
  loadSeq++;
  alerted.clear();
  useInboxSummary.setState({ needsPerson: {}, names: {}, total: 0 });
  if (next) void loadInboxSummary();
}

/** Starts the badge and the alerts (idempotent): the signed-in layout calls it. */
export function startInboxAlerts() {
  if (started) return;
  started = true;
  startChatRealtime();
  applyAuth(authStore.getState());
  authStore.subscribe(applyAuth);
  onInboxFrame(onInboxAlertFrame);
  globalThis.addEventListener?.("focus", () => {
    if (owner) void loadInboxSummary();
  });
}
