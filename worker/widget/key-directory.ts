/**
 * Which assistant a publishable key belongs to, remembered by this isolate: a key's hash names
 * one assistant for the key's whole life (a regenerated key is a new hash), so the mapping is
 * never stale, only possibly revoked. It saves the SSE turn's D1 read (widget/README.md, "The SSE
 * turn's key directory"); it authorises nothing: the assistant's own object checks the key hash, the
 * active flag and the Origin against its copy on every turn (`widgetAccess`), and that copy is
 * settled before an owner's change answers (revoke-widget-sockets.ts). A refusal there makes the
 * route ask D1 for the exact error (routes/widget/caller.ts), and forget the entry if D1 refuses too. Bounded: the oldest entry goes first.
 */
const MAX_ENTRIES = 2000;
const assistantIds = new Map<string, string>();

export function knownAssistantId(keyHash: string): string | undefined {
  return assistantIds.get(keyHash);
}

export function rememberAssistantId(keyHash: string, assistantId: string) {
  assistantIds.delete(keyHash);
  assistantIds.set(keyHash, assistantId);
  if (assistantIds.size > MAX_ENTRIES) assistantIds.delete(assistantIds.keys().next().value as string);
}

export function forgetKey(keyHash: string) {
  assistantIds.delete(keyHash);
}
