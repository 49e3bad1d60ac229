import { z } from "zod";
import { visitorIdentityMessages } from "../../contract";

/**
 * Who a widget socket belongs to, established by the worker (routes/widget/socket.ts) before the
 * room is touched and handed to it in WIDGET_IDENTITY_HEADER. The room trusts the header (only
 * the worker reaches it) but checks it names the room's own session. The key travels as its hash
 * only: the assistant's own object (AssistantHub.beginTurn) checks it on every message, so a
 * regenerated key or a deactivated assistant stops an open socket at once.
 */
export const widgetIdentitySchema = z.object({
  assistantId: z.string().min(1),
  sessionId: z.string().min(1),
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The socket's normalised Origin ("" for none), checked against the allowlist on every message. */
  origin: z.string(),
  ip: z.string(),
  /** The verified visitor the socket route checked the token of (their sub), for a verified visitor's session. */
  visitorSub: z.string().optional(),
});
export type WidgetIdentity = z.infer<typeof widgetIdentitySchema>;

export const WIDGET_IDENTITY_HEADER = "x-tala-widget-identity";

export function readWidgetIdentity(request: Request, roomName: string): WidgetIdentity | null {
  try {
    const parsed = widgetIdentitySchema.safeParse(JSON.parse(request.headers.get(WIDGET_IDENTITY_HEADER) ?? "null"));
    return parsed.success && parsed.data.sessionId === roomName ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The identity secret that verified a signed-in visitor's socket stopped at once (the
 * owner rotated with no grace, or ended the grace): the socket closes with a code the widget
 * reconnects on (not 4003, which is final), and the reconnect's token is verified again by the
 * socket route. A socket opened with a token of a leaked secret stops receiving the conversation.
 */
export const widgetSocketReverifyClose = { code: 4001, reason: visitorIdentityMessages.tokenRequired } as const;
