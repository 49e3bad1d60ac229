import type { ChatMessage, MessageVersion } from "../../contract";

/**
 * The message as clients get it once a reply was regenerated: `versions` lists the earlier
 * versions, oldest first, then the current one (the message's own content, status and error,
 * started at `currentAt`), and `versionIndex` points at the current one. A message without an
 * earlier version has neither field (one version: the message itself).
 */
export function withVersions(message: ChatMessage, earlier: readonly MessageVersion[], currentAt: number): ChatMessage {
  const { versions: _versions, versionIndex: _index, ...plain } = message;
  if (earlier.length === 0) return plain;
  const current: MessageVersion = { content: plain.content, status: plain.status, error: plain.error ?? null, createdAt: currentAt };
  return { ...plain, versions: [...earlier, current], versionIndex: earlier.length };
}
