import type { z } from "zod";
import { HTTPException } from "hono/http-exception";
import { validator } from "hono/validator";
import { serverMessages } from "../../contract";
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

/** Parses the JSON body with a contract schema; a bad body answers 400 with the field messages. */
export const jsonBody = <S extends z.ZodType>(schema: S) => {
  const parse = validator("json", async (_value, c): Promise<z.output<S>> => {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw invalid(serverMessages.invalidJson);
    }
    const parsed = await schema.safeParseAsync(raw);
    if (!parsed.success) throw toValidationError(parsed.error);
    return parsed.data;
  });
  // Hono's validator parses a JSON content-type itself and throws its own HTTPException on
  // malformed JSON, which app.onError would turn into a 500: answer invalidJson (400) instead.
  // Only errors raised before the handler runs are translated.
  const guarded: typeof parse = async (c, next) => {
    let handlerStarted = false;
    try {
      return await parse(c, async () => {
        handlerStarted = true;
        await next();
      });
    } catch (error) {
      if (!handlerStarted && error instanceof HTTPException) throw invalid(serverMessages.invalidJson);
      throw error;
    }
  };
  return guarded;
};

/** Parses the query string with a contract schema. */
export const queryParams = <S extends z.ZodType>(schema: S) =>
  validator("query", (value, _c): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw toValidationError(parsed.error);
    return parsed.data;
  });
