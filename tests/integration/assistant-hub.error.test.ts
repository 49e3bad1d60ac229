import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { publicAssistantServerMessages, widgetSessionResponse } from "../../contract";
import type { AssistantHub } from "../../worker/durable-objects/assistant-hub";
import { deletePublicAssistant } from "../../worker/services/public-assistants/delete-public-assistant";
import { getAssistantHub } from "../../worker/widget/get-assistant-hub";
import { call, json } from "./helpers";
import { assistantFootprint, testServiceContext } from "./public-assistants-helpers";
import { widgetAssistant, widgetCall } from "./widget-helpers";

/** When an assistant's own object (AssistantHub) fails or is gone. */

/** The hub namespace, with `methods` of every stub failing as an unreachable object would. */
function failingHubs(methods: readonly string[]): DurableObjectNamespace<AssistantHub> {
  const passThrough = <T extends object>(target: T, prop: string | symbol) => {
    const value = Reflect.get(target, prop) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(env.ASSISTANT_HUB, {
    get(namespace, prop) {
      if (prop !== "get") return passThrough(namespace, prop);
      return (id: DurableObjectId) =>
        new Proxy(namespace.get(id), {
          get(stub, method) {
            if (typeof method === "string" && methods.includes(method)) return () => Promise.reject(new Error("Durable Object reset because its code was updated."));
            // An RPC method as is: `.bind` on it would be an RPC call of its own.
            return Reflect.get(stub, method) as unknown;
          },
        });
    },
  });
}

const ownerOf = async (assistantId: string) =>
  (await env.DB.prepare("SELECT user_id AS id FROM public_assistants WHERE id = ?1").bind(assistantId).first<{ id: string }>())!.id;

describe("deleting an assistant whose object cannot be erased", () => {
  it("answers a retryable 503 and changes nothing in D1; the retried DELETE erases the object, then the rows", async () => {
    const { token, assistant, key } = await widgetAssistant({}, { upload: false });
    const assistantId = assistant._id;
    await json(await widgetCall("/api/widget/sessions", { key, json: { referrer: "", locale: "en" } }), widgetSessionResponse);
    const ctx = { ...testServiceContext(), env: { ...testServiceContext().env, ASSISTANT_HUB: failingHubs(["erase"]) } };
    await expect(deletePublicAssistant({ ctx, input: { userId: await ownerOf(assistantId), assistantId } })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: publicAssistantServerMessages.assistantUnreachable,
    });
    expect(await assistantFootprint(assistantId)).toMatchObject({ assistants: 1, sessions: 1 });

    expect((await call(`/api/public-assistants/${assistantId}`, { method: "DELETE", token })).status).toBe(204);
    expect(await assistantFootprint(assistantId)).toEqual({ assistants: 0, files: 0, chunks: 0, sessions: 0, messages: 0, objects: 0 });
    expect(await getAssistantHub(env, assistantId).footprint()).toEqual({ sessions: 0, messages: 0, files: 0, chunks: 0 });
  });
});
