import { z } from "zod";
import { isGuestRoomId, userRoomId } from "../../contract";

/**
 * Who a chat-room connection belongs to, established by the worker before the room is touched and
 * handed to it in IDENTITY_HEADER. Rooms are only reachable through the worker, so the room trusts
 * the header; it still checks that the identity matches its own name.
 */
export const roomIdentitySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("user"),
    userId: z.string().min(1),
    /**
     * The id of the Tala token that opened the socket (never the token itself), so the room can
     * close what a revoked token opened. Absent for a Firebase ID token (not revocable here).
     */
    tokenId: z.string().min(1).optional(),
    /**
     * Whether the account's e-mail was verified when the socket opened: an unverified account has
     * a daily quota (chat/user-limits.ts; a verification while the socket is open reaches the room
     * through its `emailVerified` RPC).
     */
    emailVerified: z.boolean().optional(),
    ip: z.string(),
  }),
  z.object({ kind: z.literal("guest"), guestId: z.string().refine(isGuestRoomId), ip: z.string() }),
]);
export type RoomIdentity = z.infer<typeof roomIdentitySchema>;

export const IDENTITY_HEADER = "x-tala-room-identity";

/** The room an identity may connect to: `user-<id>`, or the guest session id itself. */
export const roomIdOf = (identity: RoomIdentity) => (identity.kind === "user" ? userRoomId(identity.userId) : identity.guestId);

export function readIdentity(request: Request, roomName: string): RoomIdentity | null {
  try {
    const parsed = roomIdentitySchema.safeParse(JSON.parse(request.headers.get(IDENTITY_HEADER) ?? "null"));
    return parsed.success && roomIdOf(parsed.data) === roomName ? parsed.data : null;
  } catch {
    return null;
  }
}
