/** Signing out from the user menu or Settings: the session ends, /login opens, and a short toast says so. */
import { appMessages } from "../../../contract";
import { authStore } from "../stores/auth";
import { toast } from "../stores/toast";

export async function signOut() {
  await authStore.getState().logout();
  toast({ variant: "success", description: appMessages.signedOut });
}
