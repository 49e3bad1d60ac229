import { toHex } from "./encoding";

/** SHA-256 of a UTF-8 string, hex-encoded: how tokens and codes are stored. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}
