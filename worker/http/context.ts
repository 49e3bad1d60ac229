import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Env } from "../env";
import type * as schema from "../db/schema";
import type { User } from "../../contract";
import type { RequestAccess } from "../services/context";

/** Request-scoped values set once by middleware (see app.ts). */
export interface Variables {
  requestId: string;
  db: DrizzleD1Database<typeof schema>;
  /** The signed-in user, set by `requireUser`. */
  user: User;
  /** The chat room a /api/chats call reads: the signed-in user's (`user-<id>`) or the guest's (their id). Set by `requireChatOwner`. */
  chatRoomId: string;
  /** The workspace and role the team guard resolved (http/team-guard.ts); unset on routes without it. */
  access: RequestAccess | undefined;
  /** How the user authenticated: Tala's own token (with its row id) or a Firebase ID token. */
  credential: { kind: "token"; tokenId: string } | { kind: "firebase"; /** Google sign-in time, seconds since the epoch. */ authTime: number };
}

export interface AppEnv {
  Bindings: Env;
  Variables: Variables;
}
