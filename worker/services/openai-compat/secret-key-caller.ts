import { openAiCompatMessages as M, publicAssistantApiKey } from "../../../contract";
import type { ServiceContext } from "../context";
import { authorizeSecretKeyCall, presentedSecretKey, type SecretKeyCaller } from "../secret-keys/authorize-secret-key-call";
import { secretKeyDirectory, type KnownSecretKey } from "../secret-keys/secret-key-directory";
import { isRefusal, keyRefusal, refuse, type ChatCompletionRefusal } from "./chat-completion-refusal";

/** A /v1 caller: its Bearer token, the token's hash, its Origin (raw and normalised), and the key's assistant and id (`known`: from this isolate's directory, no D1 read). */
export interface ApiCaller {
  token: string;
  keyHash: string;
  rawOrigin: string | undefined;
  origin: string;
  key: KnownSecretKey;
  known: boolean;
}

/**
 * The caller before the body is read: 401 without a key, with the publishable key (recognised by
 * its prefix, its own message), or with a key not shaped like a secret key. A key this isolate
 * knows (secret-key-directory.ts) is not read from D1: the assistant's own object checks it on the
 * call (`admitApiCall`). Any other is read from D1 (unknown or revoked → 401; 403 for an inactive
 * assistant or a refused browser Origin) and remembered.
 */
export async function identifyCaller(ctx: ServiceContext, authorization: string | undefined, rawOrigin: string | undefined): Promise<ApiCaller | ChatCompletionRefusal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return refuse(401, "invalid_request_error", M.missingKey, "missing_api_key");
  const token = match[1]!;
  if (token.startsWith(publicAssistantApiKey.prefix)) return refuse(401, "invalid_request_error", M.publishableKey, "invalid_api_key");
  try {
    const presented = await presentedSecretKey({ key: token, origin: rawOrigin });
    const known = secretKeyDirectory.get(presented.keyHash);
    if (known) return { token, rawOrigin, ...presented, key: known, known: true };
    const read = await readInD1(ctx, token, rawOrigin, presented.keyHash);
    return { token, rawOrigin, ...presented, key: read.remembered, known: false };
  } catch (error) {
    return keyRefusal(error);
  }
}

/** D1's read of the key (authorize-secret-key-call.ts; throws its refusal), remembered in this isolate's directory. */
async function readInD1(ctx: ServiceContext, token: string, rawOrigin: string | undefined, keyHash: string): Promise<SecretKeyCaller & { remembered: KnownSecretKey }> {
  const read = await authorizeSecretKeyCall({ ctx, input: { key: token, origin: rawOrigin } });
  const remembered: KnownSecretKey = { assistantId: read.assistant.id, secretKey: read.secretKey };
  secretKeyDirectory.remember(keyHash, remembered);
  return { ...read, remembered };
}

/** The caller's key read in D1 again: what D1 says (remembered), or its exact refusal, and the directory forgets the key. */
export async function readAgain(ctx: ServiceContext, caller: ApiCaller): Promise<SecretKeyCaller | ChatCompletionRefusal> {
  try {
    return await readInD1(ctx, caller.token, caller.rawOrigin, caller.keyHash);
  } catch (error) {
    secretKeyDirectory.forget(caller.keyHash);
    return keyRefusal(error);
  }
}

/**
 * A remembered key read in D1 again, when the assistant's object refused the call or the body was
 * bad (a bad key answers 401 whatever the body): D1's exact refusal (`readAgain`); null when D1
 * lets it through (or the key was just read from D1).
 */
export async function recheck(ctx: ServiceContext, caller: ApiCaller): Promise<ChatCompletionRefusal | null> {
  if (!caller.known) return null;
  const read = await readAgain(ctx, caller);
  return isRefusal(read) ? read : null;
}
