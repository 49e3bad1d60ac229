/**
 * The visitor's session id, per assistant, in the host site's localStorage: a conversation
 * survives reloads and navigation on the same site, and stays this browser's own. When storage is
 * missing or refuses (private modes, sandboxed frames) the conversation lasts as long as the page.
 */
export const sessionKey = (assistantId: string) => `tala:session:${assistantId}`;

export function storedSession(assistantId: string): string | null {
  try {
    return localStorage.getItem(sessionKey(assistantId));
  } catch {
    return null;
  }
}

export function storeSession(assistantId: string, sessionId: string) {
  try {
    localStorage.setItem(sessionKey(assistantId), sessionId);
  } catch {
    // this page only
  }
}

export function forgetSession(assistantId: string) {
  try {
    localStorage.removeItem(sessionKey(assistantId));
  } catch {
    // this page only
  }
}

/**
 * The `sub` of a user token, read without verifying it (the server verifies): only to keep each
 * user's conversation under its own storage key, so another user of this browser never resumes it.
 */
export const subOf = (token: string) => {
  try {
    return String(JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).sub);
  } catch {
    return "?";
  }
};
