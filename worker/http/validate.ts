import type { z } from "zod";
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
export const jsonBody = <S extends z.ZodType>(schema: S) =>
  validator("json", async (_value, c): Promise<z.output<S>> => {
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

/** Parses the query string with a contract schema. */
export const queryParams = <S extends z.ZodType>(schema: S) =>
  validator("query", (value, _c): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw toValidationError(parsed.error);
    return parsed.data;
  });
