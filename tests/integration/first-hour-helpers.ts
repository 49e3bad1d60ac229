import { assistantAvatar } from "../../contract";
import { call, type CallInit } from "./helpers";

/** The smallest real images of each kind: the bytes their headers need, padded to `size`. */
export function imageBytes(kind: "png" | "jpeg" | "webp" | "gif", size = 64): Uint8Array<ArrayBuffer> {
  const head = {
    png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    jpeg: [0xff, 0xd8, 0xff, 0xe0],
    webp: [0x52, 0x49, 0x46, 0x46, 0x10, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
    gif: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  }[kind];
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  for (let i = head.length; i < bytes.length; i++) bytes[i] = i % 251;
  return bytes;
}

/** PUT …/avatar with a raw body (`contentType` declared, whatever the bytes are). */
export const putAvatar = (token: string | undefined, assistantId: string, bytes: Uint8Array<ArrayBuffer>, contentType = "application/octet-stream", init: CallInit = {}) =>
  call(`/api/public-assistants/${assistantId}/avatar`, { token, method: "PUT", body: bytes, headers: { "content-type": contentType }, ...init });

/** PUT …/avatar as a form, the image in the field `file` under `name`. */
export function putAvatarForm(token: string, assistantId: string, bytes: Uint8Array<ArrayBuffer>, name: string, type = "") {
  const form = new FormData();
  form.append(assistantAvatar.fieldName, new File([bytes], name, { type }));
  return call(`/api/public-assistants/${assistantId}/avatar`, { token, method: "PUT", body: form });
}

/** The path part of an avatar URL (the test's requests go to the worker directly). */
export const pathOf = (url: string) => new URL(url).pathname;
