import type { z } from "zod";
import type { HonoRequest, MiddlewareHandler } from "hono";
import { validator } from "hono/validator";
import { serverMessages } from "../../contract";
import type { AppEnv } from "./context";
import { invalid } from "./errors";

/** Turns zod issues into the envelope's `fields` map and a first human message. */
export function toValidationError(error: z.ZodError) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  const first = error.issues[0]?.message ?? serverMessages.invalidInput;
  return invalid(first, fields);
}

/**
 * A request's JSON body parsed with a contract schema. An absent or blank body counts as `{}`,
 * so a body whose fields are all optional may be left out and the schema decides (a required
 * field answers its own 400); a body that is present but not JSON answers invalidJson (400).
 */
export async function readJsonBody<S extends z.ZodType>(req: HonoRequest, schema: S): Promise<z.output<S>> {
  let raw: unknown = {};
  const text = await req.text();
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

/**
 * Parses the JSON body with a contract schema (`readJsonBody`) before the handler, which reads it
 * as `c.req.valid("json")`; a bad body answers 400 with the field messages. Whatever the declared
 * content type: Hono's own JSON validator would skip a body not declared JSON and refuse an empty
 * one declared JSON.
 */
export const jsonBody =
  <S extends z.ZodType>(schema: S): MiddlewareHandler<AppEnv, string, { in: { json: z.output<S> }; out: { json: z.output<S> } }> =>
  async (c, next) => {
    c.req.addValidatedData("json", (await readJsonBody(c.req, schema)) as object);
    await next();
  };

/** Parses the query string with a contract schema. */
export const queryParams = <S extends z.ZodType>(schema: S) =>
  validator("query", (value, _c): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw toValidationError(parsed.error);
    return parsed.data;
  });
