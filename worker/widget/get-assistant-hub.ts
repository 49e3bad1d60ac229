import type { Env } from "../env";

/** The stub of an assistant's AssistantHub, by assistant id: the one way to reach one. */
export function getAssistantHub(env: Pick<Env, "ASSISTANT_HUB">, assistantId: string) {
  return env.ASSISTANT_HUB.get(env.ASSISTANT_HUB.idFromName(assistantId));
}
