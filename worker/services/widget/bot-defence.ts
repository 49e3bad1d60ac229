import { botDefenceMessages, type ProofOfWork } from "../../../contract";
import type { SessionProof } from "../../assistant/bot-defence-store";
import type { Env } from "../../env";
import { AppError } from "../../http/errors";
import { deriveChallengeKey, issueChallenge, verifyProof } from "../../widget/proof-of-work";
import { encryptionSecret } from "../public-assistants/api-key-encryption";

/**
 * The worker's half of the bot defence: the challenge key, the stateless check of a
 * proof before the assistant's object (which spends it once and decides whether one is needed:
 * assistant/bot-defence-store.ts), and the 428 / 403 answers with a fresh signed challenge.
 */

const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key of challenges, derived from the server's secret (ENCRYPTION_KEY; 503 in production without one). */
function challengeKey(env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">): Promise<CryptoKey> {
  const secret = encryptionSecret(env);
  let key = keys.get(secret);
  if (!key) {
    key = deriveChallengeKey(secret);
    keys.set(secret, key);
  }
  return key;
}

/**
 * The proof a session start came with, checked without any state (signature, expiry, assistant,
 * address, bits); undefined when none came. A refusal is logged with its reason and handed on:
 * the assistant's object decides whether a proof was needed at all.
 */
export async function checkSessionProof(
  env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">,
  proof: ProofOfWork | undefined,
  expected: { assistantId: string; address: string; requestId?: string },
): Promise<SessionProof | undefined> {
  if (!proof) return undefined;
  const checked = await verifyProof(await challengeKey(env), proof, expected);
  if (checked.ok) return { valid: true, id: checked.id, expiresAt: checked.expiresAt, difficulty: checked.difficulty };
  console.warn(JSON.stringify({ event: "widget-proof-refused", assistantId: expected.assistantId, reason: checked.reason, requestId: expected.requestId }));
  return { valid: false };
}

/**
 * The answer when a new session needs a proof: 428 CHALLENGE_REQUIRED when none came, 403
 * FORBIDDEN when the one that came was refused (forged, expired, replayed, another address, too
 * few bits); both carry a fresh challenge, so an honest widget solves once more.
 */
export async function proofNeededError(
  env: Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">,
  input: { assistantId: string; address: string; difficulty: number; refused: boolean },
): Promise<AppError> {
  const challenge = await issueChallenge(await challengeKey(env), input);
  return input.refused
    ? new AppError("FORBIDDEN", botDefenceMessages.proofRefused, { challenge })
    : new AppError("CHALLENGE_REQUIRED", botDefenceMessages.challengeRequired, { challenge });
}
