import type { IdentitySecretCreated, IdentitySecretStatus } from "../../../contract";
import type { IdentitySecretResult } from "../../assistant/facets/identity";
import { isGone, type Gone } from "../../assistant/gone";
import { AppError, notFound } from "../../http/errors";
import { reachAssistantHub } from "../../durable-objects/stubs";
import type { ServiceContext } from "../context";
import { requirePublicAssistant } from "../public-assistants/find-public-assistant";
import { assistantAudit, recordAudit } from "../team/audit";

/**
 * An assistant's visitor identity secret: its status, creation or rotation, and the
 * end of a rotated-out secret's grace. Ownership is checked in D1 (another owner's assistant is a
 * 404); the secrets live sealed in the assistant's own object (assistant/identity-secrets.ts),
 * where tokens are verified.
 */

type Input = { userId: string; assistantId: string };

function unwrap<T>(result: IdentitySecretResult<T> | Gone): T {
  if (isGone(result)) throw notFound();
  if (result.ok) return result.value;
  throw new AppError("SERVICE_UNAVAILABLE", result.error);
}

/** GET …/identity-secret: the current secret and the previous one in its grace, masked. */
export async function getIdentitySecret({ ctx, input }: { ctx: ServiceContext; input: Input }): Promise<IdentitySecretStatus> {
  const assistant = await requirePublicAssistant({ ctx, input });
  return unwrap(await reachAssistantHub(ctx.env, assistant.id).identity().status());
}

/** POST …/identity-secret { graceHours }: a new secret (in this answer only); the replaced one verifies `graceHours` more. */
export async function rotateIdentitySecret({ ctx, input }: { ctx: ServiceContext; input: Input & { graceHours: number } }): Promise<IdentitySecretCreated> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const created = unwrap(await reachAssistantHub(ctx.env, assistant.id).identity().rotate(input.graceHours));
  await recordAudit(ctx, assistantAudit(ctx, assistant, "identity_secret.created", { target: created.current?.masked ?? "", details: { graceHours: input.graceHours } }));
  return created;
}

/** DELETE …/identity-secret/previous: the rotated-out secret stops verifying now. */
export async function endIdentitySecretGrace({ ctx, input }: { ctx: ServiceContext; input: Input }): Promise<IdentitySecretStatus> {
  const assistant = await requirePublicAssistant({ ctx, input });
  const before = unwrap(await reachAssistantHub(ctx.env, assistant.id).identity().status());
  const status = unwrap(await reachAssistantHub(ctx.env, assistant.id).identity().endGrace());
  if (before.previous) await recordAudit(ctx, assistantAudit(ctx, assistant, "identity_secret.revoked", { target: before.previous.masked }));
  return status;
}
