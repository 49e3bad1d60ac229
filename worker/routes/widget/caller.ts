import type { Context } from "hono";
import type { z } from "zod";
import { widget } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { serviceContext } from "../../http/service-context";
import { readJsonBody } from "../../http/validate";
import { authorizeWidgetCall, presentedKey, type OriginRule, type WidgetCaller } from "../../services/widget/authorize-widget-call";
import { forgetKey, knownAssistantId, rememberAssistantId } from "../../widget/key-directory";
import { refuseCors } from "./cors";

/** The key's assistant for a widget call (X-Assistant-Key + Origin); a refused Origin is not reflected by CORS. */
export async function widgetCaller(c: Context<AppEnv>, key: string | undefined, rule: OriginRule = "required"): Promise<WidgetCaller> {
  try {
    return await authorizeWidgetCall({ ctx: serviceContext(c), input: { key, origin: c.req.header("origin"), rule } });
  } catch (error) {
    refuseCors(c, error);
    throw error;
  }
}

/** A turn's caller: its assistant, its key's hash and Origin; `known`: found in the isolate's key directory, not read from D1. */
export interface TurnCaller {
  assistantId: string;
  keyHash: string;
  origin: string;
  known: boolean;
}

/**
 * The caller of a visitor turn over SSE: the key's assistant from this isolate's key directory
 * (widget/key-directory.ts) when it knows the key, so the turn reads nothing from D1: the
 * assistant's own object then checks the key, the active flag and the Origin (`beginTurn`);
 * else the D1 read of `widgetCaller`, remembered. The checks that need no lookup run either way.
 */
export async function turnCaller(c: Context<AppEnv>, key: string | undefined): Promise<TurnCaller> {
  let presented;
  try {
    presented = await presentedKey({ key, origin: c.req.header("origin") });
  } catch (error) {
    refuseCors(c, error);
    throw error;
  }
  const known = knownAssistantId(presented.keyHash);
  if (known) return { assistantId: known, ...presented, known: true };
  const caller = await widgetCaller(c, key);
  rememberAssistantId(caller.keyHash, caller.assistant.id);
  return { assistantId: caller.assistant.id, keyHash: caller.keyHash, origin: caller.origin, known: false };
}

/**
 * A remembered key read in D1 again, when the assistant's object refused the turn or the body was
 * bad (a bad key answers 401 whatever the body): D1's exact error, and the directory forgets the
 * key, once it no longer passes. A key just read from D1 is not read twice.
 */
export async function recheckTurnCaller(c: Context<AppEnv>, caller: TurnCaller): Promise<void> {
  if (!caller.known) return;
  try {
    await widgetCaller(c, keyHeader(c));
  } catch (refused) {
    forgetKey(caller.keyHash);
    throw refused;
  }
}

export const keyHeader = (c: Context<AppEnv>) => c.req.header(widget.keyHeader);

/**
 * The JSON body parsed with a contract schema (`readJsonBody`: an empty body counts as `{}`),
 * read after the caller was authorised (so a bad key answers 401 whatever the body).
 */
export function readBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  return readJsonBody(c.req, schema);
}
