import { z } from "zod";
import { auth } from "../constants";
import { serverMessages } from "../messages";
import { validationMessages } from "../validation";

/** Lower-cased, trimmed e-mail with a plain format check. */
export const emailSchema = z
  .string({ error: serverMessages.invalidEmail })
  .trim()
  .toLowerCase()
  .max(254, { error: serverMessages.invalidEmail })
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: serverMessages.invalidEmail });

export const passwordSchema = z
  .string({ error: serverMessages.passwordTooShort(auth.passwordMinLength) })
  .min(auth.passwordMinLength, { error: serverMessages.passwordTooShort(auth.passwordMinLength) })
  .max(auth.passwordMaxLength, { error: serverMessages.passwordTooLong(auth.passwordMaxLength) });

export const codeSchema = z
  .string({ error: serverMessages.invalidCode })
  .trim()
  .regex(new RegExp(`^\\d{${auth.codeLength}}$`), { error: serverMessages.invalidCode });

const optionalText = (max: number) => z.string().trim().max(max).optional().default("");
/** ISO date (YYYY-MM-DD) or empty. */
const birthDateSchema = z
  .string()
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: serverMessages.invalidBirthDate })
  .optional()
  .default("");

/** The required message only for a missing or empty name: a long one is told the limit. */
const firstNameSchema = z
  .string({ error: (issue) => (issue.code === "invalid_type" ? serverMessages.firstNameRequired : undefined) })
  .trim()
  .min(1, { error: serverMessages.firstNameRequired })
  .max(auth.nameMaxLength, { error: validationMessages.atMost("First name", auth.nameMaxLength, "characters") });

export const registerBody = z.object({
  email: emailSchema,
  password: passwordSchema,
  firstName: firstNameSchema,
  lastName: optionalText(100),
  phone: optionalText(40),
  birthDate: birthDateSchema,
});
export type RegisterBody = z.input<typeof registerBody>;

/** Login checks only presence: a wrong format is simply wrong credentials. */
export const loginBody = z.object({
  email: z.string({ error: serverMessages.invalidEmail }).trim().toLowerCase().min(1, { error: serverMessages.invalidEmail }),
  password: z.string({ error: serverMessages.passwordRequired }).min(1, { error: serverMessages.passwordRequired }),
});
export type LoginBody = z.input<typeof loginBody>;

export const emailOnlyBody = z.object({ email: emailSchema });
export const emailCodeBody = z.object({ email: emailSchema, code: codeSchema });
export const resetPasswordConfirmBody = z.object({
  email: emailSchema,
  code: codeSchema,
  newPassword: passwordSchema,
});
export const changeEmailRequestBody = z.object({
  newEmail: emailSchema,
  password: z.string({ error: serverMessages.passwordRequired }).min(1, { error: serverMessages.passwordRequired }),
});
export const changePasswordBody = z.object({
  currentPassword: z
    .string({ error: serverMessages.currentPasswordRequired })
    .min(1, { error: serverMessages.currentPasswordRequired }),
  newPassword: passwordSchema,
});
export const updateProfileBody = z.object({
  firstName: firstNameSchema.optional(),
  lastName: z.string().trim().max(100).optional(),
  phone: z.string().trim().max(40).optional(),
  birthDate: birthDateSchema.optional(),
});

/** Federated sign-in sync payload (spec section 3). The ID token is the only thing trusted. */
export const googleCallbackBody = z.object({
  idToken: z.string().min(1),
  uid: z.string().optional(),
  email: z.string().optional(),
  displayName: z.string().nullable().optional(),
  photoURL: z.string().nullable().optional(),
});
export type GoogleCallbackBody = z.input<typeof googleCallbackBody>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  birthDate: z.string(),
  photoURL: z.string().nullable(),
  isEmailVerified: z.boolean(),
  hasPassword: z.boolean(),
  createdAt: z.number(),
});
export type User = z.infer<typeof userSchema>;

export const authResponse = z.object({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponse>;
export const userResponse = z.object({ user: userSchema });
export const messageResponse = z.object({ message: z.string() });
/** POST /auth/change-password: a fresh token (other sessions are revoked), the user and a message. */
export const changePasswordResponse = authResponse.extend({ message: z.string() });

/**
 * DELETE /auth/me: deletes the signed-in account and everything it owns. A password account
 * confirms with its password; a federated-only account has none (the valid credential suffices).
 */
export const deleteAccountBody = z.object({
  password: z.string().max(auth.passwordMaxLength, { error: serverMessages.wrongPassword }).optional(),
});
export type DeleteAccountBody = z.input<typeof deleteAccountBody>;
/** DELETE /auth/me: `{ message: serverMessages.accountDeleted }`. */
export const deleteAccountResponse = messageResponse;

/** Public, non-secret configuration the dashboard needs (federated sign-in setup). */
export const clientConfigResponse = z.object({
  environment: z.string(),
  firebase: z
    .object({ apiKey: z.string(), authDomain: z.string(), projectId: z.string() })
    .nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigResponse>;

/** One e-mail in the local dev outbox (GET /api/dev/outbox, local mode only). */
export const outboxEmailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  sentAt: z.number(),
});
export const outboxQuery = z.object({ to: z.string().optional() });
export const outboxResponse = z.object({ emails: z.array(outboxEmailSchema) });
export type OutboxEmail = z.infer<typeof outboxEmailSchema>;
