import type { Context } from "hono";
import type { z } from "zod";
import { serverMessages, widget } from "../../../contract";
import type { AppEnv } from "../../http/context";
import { invalid } from "../../http/errors";
import { serviceContext } from "../../http/service-context";
import { toValidationError } from "../../http/validate";
import { authorizeWidgetCall, type OriginRule, type WidgetCaller } from "../../services/widget/authorize-widget-call";
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

export const keyHeader = (c: Context<AppEnv>) => c.req.header(widget.keyHeader);

/**
 * The JSON body parsed with a contract schema, read after the caller was authorised (so a bad key
 * answers 401 whatever the body). An empty body counts as `{}`.
 */
export async function readBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim()) {
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalid(serverMessages.invalidJson);
    }
  }
  const parsed = await schema.safeParseAsync(raw);
  if (!parsed.success) throw toValidationError(parsed.error);
  return parsed.data;
}
