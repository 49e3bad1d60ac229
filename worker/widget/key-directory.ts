import { KeyDirectory } from "../http/key-directory";

/**
 * Which assistant a publishable key belongs to, remembered by this isolate (http/key-directory.ts).
 * It saves the SSE turn's D1 read (widget/README.md, "The SSE turn's key directory"); it
 * authorises nothing: the assistant's own object checks the key hash, the active flag and the
 * Origin against its copy on every turn (`widgetAccess`), and that copy is settled before an
 * owner's change answers (revoke-widget-sockets.ts). A refusal there makes the route ask D1 for
 * the exact error (routes/widget/caller.ts), and forget the entry if D1 refuses too.
 */
const assistantIds = new KeyDirectory<string>(2000);

export const knownAssistantId = (keyHash: string) => assistantIds.get(keyHash);
export const rememberAssistantId = (keyHash: string, assistantId: string) => assistantIds.remember(keyHash, assistantId);
export const forgetKey = (keyHash: string) => assistantIds.forget(keyHash);
