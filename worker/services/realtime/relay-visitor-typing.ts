import { unlessGone } from "../../assistant/gone";
import { callFacet, getAssistantHub } from "../../durable-objects/stubs";
import type { Env } from "../../env";
import { relayToOwners } from "./relay-to-owners";

/**
 * The visitor types (the widget's `typing` socket frame, throttled by its room: widget/visitor-typing.ts):
 * the owners' rooms the assistant's object names (those watching the inbox, and the owner of a
 * conversation a person was asked for or has) get an `inbox` frame `kind: "typing"`. Nobody to
 * tell: nothing is relayed. An indicator is only a hint, so a failure is logged, never thrown.
 */
export async function relayVisitorTyping(env: Pick<Env, "ASSISTANT_HUB" | "CHAT_ROOM">, input: { assistantId: string; sessionId: string; typing: boolean }): Promise<void> {
  try {
    const rooms = unlessGone(await callFacet(getAssistantHub(env, input.assistantId).handoff(), (h) => h.visitorTyping(input.sessionId)), []);
    if (rooms.length) await relayToOwners(env, rooms, { assistantId: input.assistantId, sessionId: input.sessionId, kind: "typing", typing: input.typing });
  } catch (error) {
    console.error(JSON.stringify({ event: "visitor-typing-relay-failed", sessionId: input.sessionId, error: String(error) }));
  }
}
