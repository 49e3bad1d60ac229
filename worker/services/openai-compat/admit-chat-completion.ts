import type { Gone } from "../../assistant/gone";
import type { CuratedAnswer } from "../../assistant/hub-qa";
import type { ApiCallAdmission } from "../../durable-objects/assistant-hub";
import { budgetMessages, openAiCompatMessages as M } from "../../../contract";
import type { Passage } from "../../widget/prompt";
import { retrievalQuery } from "../../widget/prompt";
import type { PublicAssistantRecord } from "../public-assistants/to-public-assistant";
import type { ServiceContext } from "../context";
import { touchSecretKey } from "../secret-keys/authorize-secret-key-call";
import { isRefusal, refuse, type ChatCompletionRefusal } from "./chat-completion-refusal";
import { readChatRequest, type ChatCompletionBody, type ChatRequest, type Conversation } from "./read-chat-request";
import { readAgain, recheck, identifyCaller, type ApiCaller } from "./secret-key-caller";
import { askSettled } from "./settled-on-hub";

export type { ChatCompletionRefusal } from "./chat-completion-refusal";
export type { ChatCompletionBody } from "./read-chat-request";

/** A /v1 call let through: who answers, the passages retrieved for the question, and what the request asks. */
export interface AdmittedChatCompletion extends ChatRequest {
  outcome: "admitted";
  assistant: Pick<PublicAssistantRecord, "id" | "name" | "instructions">;
  /** Null when the assistant's retrieval failed (the answer then fails). */
  passages: Passage[] | null;
  /** The curated answer the question matched: `exact` is the reply (no model); a `guide` pair leads `passages`. */
  curated: CuratedAnswer | null;
}

/**
 * A /v1 chat completion from "the request arrived" to "answer it, or refuse it": the caller's key
 * (secret-key-caller.ts: from this isolate's directory, else one D1 read), the body, then one call
 * to the assistant's own object (the key against its copy, its budgets and daily counter, the
 * retrieval and the curated answers, as a visitor's turn). A refusal carries OpenAI's status, type, message, code and headers, in the order
 * the checks run: a bad key answers 401 whatever the body. Records the key's use (`touchSecretKey`,
 * after the response) once the key passed. Throws only what is not a refusal (an unknown error).
 */
export async function admitChatCompletion({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { authorization: string | undefined; origin: string | undefined; body: ChatCompletionBody };
}): Promise<AdmittedChatCompletion | ChatCompletionRefusal> {
  const caller = await identifyCaller(ctx, input.authorization, input.origin);
  if (isRefusal(caller)) return caller;
  const request = readChatRequest(input.body);
  // A bad body of a remembered key that no longer passes answers the key's refusal, as D1's read would first.
  if (isRefusal(request)) return (await recheck(ctx, caller)) ?? request;

  const admission = await admitSettled(ctx, caller, request.conversation);
  if (isRefusal(admission)) return admission;
  await touchSecretKey(ctx, caller.key.secretKey); // settled at once: the write runs in waitUntil
  if (!admission.ok && "budget" in admission) {
    // A monthly budget is used up and pauses the assistant: 429 with OpenAI's code for a spent quota.
    return refuse(429, "rate_limit_error", budgetMessages.budgetReached, "insufficient_quota", { "retry-after": String(admission.retryAfter) });
  }
  if (!admission.ok) return refuse(429, "rate_limit_error", M.dailyLimitReached, "daily_limit_exceeded", { "retry-after": String(admission.retryAfter) });

  let assistant = admission.assistant as typeof admission.assistant | undefined;
  if (!assistant) {
    // An object still on a version before it checked keys (a deployment under way) checked none
    // and sent no assistant: D1's read for this call, as that version's route did.
    const read = await readAgain(ctx, caller);
    if (isRefusal(read)) return read;
    assistant = read.assistant;
  }
  return { outcome: "admitted", ...request, assistant, passages: admission.passages, curated: admission.curated ?? null };
}

/**
 * The one call to the assistant's own object: the key against its copy, its daily counter (no
 * session, no network share) and the retrieval; its refusal of the key settled (settled-on-hub.ts).
 */
function admitSettled(ctx: ServiceContext, caller: ApiCaller, conversation: Conversation) {
  return askSettled<ApiCallAdmission | Gone>(ctx, caller, "admitApiCall", async (hub) =>
    await hub.admitApiCall({
      keyHash: caller.keyHash,
      origin: caller.origin,
      query: retrievalQuery(conversation.question, conversation.history),
      question: conversation.question,
    }),
  );
}
