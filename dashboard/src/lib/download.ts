/**
 * A file the server sends as an attachment (CSV and JSON exports), read with the owner's auth header
 * and workspace: the body as a Blob and the name to save it under. A network failure or an error
 * answer throws the same ApiError as every other call.
 */
import { credentialHeaders } from "./api";
import { errorFromResponse } from "./public-assistants-api";

/** The file name of a download: the server's (Content-Disposition) when it gives one, else `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (!match?.[1]) return fallback;
  try {
    return decodeURIComponent(match[1]).replace(/[/\\]/g, "_");
  } catch {
    return fallback;
  }
}

export async function downloadAttachment(fetchImpl: typeof fetch, url: string, accept: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  const headers: Record<string, string> = { accept, ...credentialHeaders() };
  let res: Response;
  try {
    res = await fetchImpl(url, { headers, credentials: "include" });
  } catch {
    throw errorFromResponse(0, null);
  }
  if (!res.ok) throw errorFromResponse(res.status, await res.json().catch(() => null));
  const blob = await res.blob();
  return { blob, fileName: attachmentName(res.headers.get("content-disposition"), fallbackName) };
}
