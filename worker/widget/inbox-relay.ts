import type { InboxRelay } from "../assistant/hub-handoff";
import type { Env } from "../env";
import { relayToOwners } from "../services/realtime/relay-to-owners";

/**
 * Relays an inbox frame the assistant's object handed back (a turn's `inbox`, a handoff write's
 * relay) to the owners' rooms it names; nothing when nobody watches. Never throws (relayToOwners
 * logs a room that fails).
 */
export async function relayInbox(env: Pick<Env, "CHAT_ROOM">, relay: InboxRelay | null | undefined): Promise<void> {
  if (!relay?.rooms.length) return;
  await relayToOwners(env, relay.rooms, relay.data);
}
