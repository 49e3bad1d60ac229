/**
 * An uploaded avatar's bytes: read within the cap, whatever the client declared, and typed by their
 * first bytes (PNG, JPEG, WebP). Nothing here trusts a file name or a Content-Type. Pure, unit-tested.
 */
import { assistantAvatar, avatarMessages as M } from "../../../contract";
import { AppError, invalid } from "../../http/errors";

export type AvatarType = "image/png" | "image/jpeg" | "image/webp";

const maxKb = Math.round(assistantAvatar.maxBytes / 1024);
export const avatarTooLarge = () => new AppError("PAYLOAD_TOO_LARGE", M.tooLarge(maxKb));
/** A form's boundary and headers around the image: generous, and still bounded. */
const MULTIPART_OVERHEAD = 16 * 1024;

/** The image type its first bytes say, or null. */
export function sniffAvatarType(bytes: Uint8Array): AvatarType | null {
  const at = (i: number, ...expected: number[]) => expected.every((b, k) => bytes[i + k] === b);
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  // "RIFF" size "WEBP"
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

/** The body's bytes, refused as soon as they pass `cap` (a declared length over it is refused unread). */
export async function readBounded(request: Request, cap: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > cap) throw avatarTooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => {});
      throw avatarTooLarge();
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * The image of a PUT …/avatar: the raw body, or the multipart field `file`. 413 past the cap,
 * 415 for anything whose bytes are not a PNG, JPEG or WebP, 400 for an empty one.
 */
export async function readAvatarUpload(request: Request): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: AvatarType }> {
  const multipart = /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");
  let bytes = await readBounded(request, assistantAvatar.maxBytes + (multipart ? MULTIPART_OVERHEAD : 0));
  if (multipart) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
    } catch {
      throw invalid(M.empty);
    }
    const file = form.get(assistantAvatar.fieldName);
    if (!file || typeof file === "string") throw invalid(M.empty, { [assistantAvatar.fieldName]: M.empty });
    if (file.size > assistantAvatar.maxBytes) throw avatarTooLarge();
    bytes = new Uint8Array(await file.arrayBuffer());
  }
  if (bytes.byteLength === 0) throw invalid(M.empty);
  if (bytes.byteLength > assistantAvatar.maxBytes) throw avatarTooLarge();
  const type = sniffAvatarType(bytes);
  if (!type) throw new AppError("UNSUPPORTED_MEDIA_TYPE", M.wrongType);
  return { bytes, type };
}
