/**
 * Validation messages: every refusal of a request body or query is a sentence naming the field and
 * the limit. Schemas keep their own messages where the spec (or Tala) wrote one; every other issue
 * gets its sentence from `contractErrorMap`, which the Worker installs as zod's global error map
 * (worker/app.ts), so no zod default text ("Too big: expected string to have <=8000 characters")
 * ever reaches a user.
 */
import type { z } from "zod";

/** The request as a whole (sentences, shown as is). */
export const requestMessages = {
  bodyNotObject: "The request body must be a JSON object.",
  bodyTooLarge: (kilobytes: number) => `The request body must be at most ${kilobytes} KB.`,
  /** A request the framework refused before any route read it (a malformed header or body). */
  unreadable: "The request could not be read. Check its headers and body.",
  tooLarge: "The request is too large.",
} as const;

/** `field` is a label ("Project name", "Page"); the sentences start with it. */
export const validationMessages = {
  required: (field: string) => `${field} is required.`,
  mustBe: (field: string, what: string) => `${field} must be ${what}.`,
  atMost: (field: string, max: number | bigint, unit: string) => `${field} must be at most ${max} ${unit}.`,
  atLeast: (field: string, min: number | bigint, unit: string) => `${field} must be at least ${min} ${unit}.`,
  exactly: (field: string, size: number | bigint, unit: string) => `${field} must be exactly ${size} ${unit}.`,
  numberAtMost: (field: string, max: number | bigint) => `${field} must be at most ${max}.`,
  numberAtLeast: (field: string, min: number | bigint) => `${field} must be at least ${min}.`,
  numberBelow: (field: string, max: number | bigint) => `${field} must be less than ${max}.`,
  numberAbove: (field: string, min: number | bigint) => `${field} must be greater than ${min}.`,
  wholeNumber: (field: string) => `${field} must be a whole number.`,
  oneOf: (field: string, values: readonly string[]) => `${field} must be one of: ${values.join(", ")}.`,
  format: (field: string) => `${field} is not in a valid format.`,
  unknownFields: (fields: readonly string[]) =>
    `${fields.length === 1 ? "This field is" : "These fields are"} not accepted: ${fields.join(", ")}.`,
  invalid: (field: string) => `${field} is not valid.`,
} as const;

/** What zod calls a type, as a sentence says it ("must be text"). */
const typeNames: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  date: "a date",
  null: "null",
};

/** Units of a size limit, by the kind of value it applies to. */
const sizeUnits: Record<string, [one: string, many: string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  file: ["byte", "bytes"],
};
const unit = (origin: string, n: number | bigint) => {
  const [one, many] = sizeUnits[origin] ?? ["item", "items"];
  return Number(n) === 1 ? one : many;
};

/**
 * The label of the field at `path`: its last named key in words ("maxMessagesPerSession" →
 * "Max messages per session"), with the list position when the value is an item of a list
 * ("Allowed origins item 3"). An empty path is the request body itself.
 */
export function fieldLabel(path: readonly PropertyKey[] | undefined): string {
  const segments = path ?? [];
  let index: number | undefined;
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    if (typeof segment === "number") {
      index ??= segment;
      continue;
    }
    const words = String(segment)
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/[_-]+/g, " ")
      .trim()
      .toLowerCase();
    const label = words.charAt(0).toUpperCase() + words.slice(1);
    return index === undefined || i < segments.length - 2 ? label : `${label} item ${index + 1}`;
  }
  return index === undefined ? "The request body" : `Item ${index + 1}`;
}

type Issue = z.core.$ZodRawIssue;

/** One sentence for a zod issue that its schema gave no message of its own. */
export function contractMessage(issue: Issue): string {
  const field = fieldLabel(issue.path);
  const m = validationMessages;
  switch (issue.code) {
    case "invalid_type": {
      if (!issue.path?.length && issue.expected === "object") return requestMessages.bodyNotObject;
      if (issue.input === undefined) return m.required(field);
      return m.mustBe(field, typeNames[issue.expected] ?? issue.expected);
    }
    case "too_big": {
      if (issue.origin === "number" || issue.origin === "bigint" || issue.origin === "date") {
        return issue.inclusive === false ? m.numberBelow(field, Number(issue.maximum)) : m.numberAtMost(field, Number(issue.maximum));
      }
      return m.atMost(field, issue.maximum, unit(issue.origin, issue.maximum));
    }
    case "too_small": {
      if (issue.origin === "number" || issue.origin === "bigint" || issue.origin === "date") {
        return issue.inclusive === false ? m.numberAbove(field, Number(issue.minimum)) : m.numberAtLeast(field, Number(issue.minimum));
      }
      // A required text left empty reads better as "required" than "at least 1 character".
      if (issue.origin === "string" && Number(issue.minimum) === 1) return m.required(field);
      if (issue.exact) return m.exactly(field, issue.minimum, unit(issue.origin, issue.minimum));
      return m.atLeast(field, issue.minimum, unit(issue.origin, issue.minimum));
    }
    case "invalid_format":
      return m.format(field);
    case "not_multiple_of":
      return issue.divisor === 1 ? m.wholeNumber(field) : m.invalid(field);
    case "invalid_value":
      return issue.values.length <= 10 ? m.oneOf(field, issue.values.map(String)) : m.invalid(field);
    case "unrecognized_keys":
      return m.unknownFields(issue.keys);
    default:
      return m.invalid(field);
  }
}

/** zod's error map for the Worker: `z.config({ customError: contractErrorMap })`. */
export const contractErrorMap = (issue: Issue): string => {
  // zod reports a non-integer for `.int()` as invalid_type with expected "int".
  if (issue.code === "invalid_type" && issue.expected === "int" && typeof issue.input === "number") {
    return validationMessages.wholeNumber(fieldLabel(issue.path));
  }
  return contractMessage(issue);
};
