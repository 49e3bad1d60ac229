/**
 * The account API (spec section 7), one function per call, each response parsed with the
 * contract's schema. Pure transport: state changes live in stores/auth.ts.
 */
import {
  authResponse,
  changePasswordResponse,
  clientConfigResponse,
  deleteAccountResponse,
  messageResponse,
  userResponse,
  type ClientConfig,
  type GoogleCallbackBody,
  type LoginBody,
  type RegisterBody,
  type User,
} from "../../../contract";
import { apiClient, type ApiClient } from "./api";

/** Login answers may lack a token (spec section 5: 'No token received'), so it is parsed leniently. */
const loginResponse = authResponse.partial();

export interface ProfileUpdate {
  firstName?: string;
  lastName?: string;
  phone?: string;
  birthDate?: string;
}

export function createAccountApi(client: ApiClient) {
  return {
    register: (body: RegisterBody) => client.post("/auth/register", body, { schema: authResponse }),
    login: (body: LoginBody) => client.post("/auth/login", body, { schema: loginResponse }),
    logout: (signal?: AbortSignal) => client.post("/auth/logout", undefined, { signal }),
    me: async (): Promise<User> => (await client.get("/auth/me", { schema: userResponse })).user,
    updateProfile: async (body: ProfileUpdate): Promise<User> =>
      (await client.patch("/auth/me", body, { schema: userResponse })).user,
    requestEmailVerification: (email: string) =>
      client.post("/auth/verify-email/request", { email }, { schema: messageResponse }),
    confirmEmailVerification: async (email: string, code: string): Promise<User> =>
      (await client.post("/auth/verify-email/confirm", { email, code }, { schema: userResponse })).user,
    requestPasswordReset: (email: string) =>
      client.post("/auth/reset-password/request", { email }, { schema: messageResponse }),
    confirmPasswordReset: (email: string, code: string, newPassword: string) =>
      client.post("/auth/reset-password/confirm", { email, code, newPassword }, { schema: messageResponse }),
    requestEmailChange: (newEmail: string, password: string) =>
      client.post("/auth/change-email/request", { newEmail, password }, { schema: messageResponse }),
    confirmEmailChange: async (email: string, code: string): Promise<User> =>
      (await client.post("/auth/change-email/confirm", { email, code }, { schema: userResponse })).user,
    changePassword: (currentPassword: string, newPassword: string) =>
      client.post("/auth/change-password", { currentPassword, newPassword }, { schema: changePasswordResponse }),
    /**
     * Deletes the account and all it owns: a password account confirms with its password, a
     * Google-only one sends a fresh Google ID token as its credential.
     */
    deleteAccount: (confirm: { password: string } | { googleIdToken: string }) =>
      "password" in confirm
        ? client.delete("/auth/me", { body: { password: confirm.password }, schema: deleteAccountResponse })
        : client.delete("/auth/me", { body: {}, authorization: `Bearer ${confirm.googleIdToken}`, schema: deleteAccountResponse }),
    googleCallback: (body: GoogleCallbackBody) => client.post("/auth/google-callback", body, { schema: authResponse }),
    config: (): Promise<ClientConfig> => client.get("/config", { schema: clientConfigResponse }),
  };
}

export type AccountApi = ReturnType<typeof createAccountApi>;

export const accountApi: AccountApi = createAccountApi(apiClient);
