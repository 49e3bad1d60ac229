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
