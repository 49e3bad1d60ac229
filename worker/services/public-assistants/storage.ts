/**
 * Where knowledge files live in R2: `assistants/{assistantId}/files/{fileId}/{storageName}`.
 * The owner's file name is kept in the file record (the assistant's own object); the key carries
 * only a safe ASCII form of it.
 */

export const assistantStoragePrefix = (assistantId: string) => `assistants/${assistantId}/`;

export function knowledgeFileKey(assistantId: string, fileId: string, name: string): string {
  return `${assistantStoragePrefix(assistantId)}files/${fileId}/${storageName(name)}`;
}

/** `Rapport annuel (v2).pdf` → `Rapport_annuel_v2.pdf`: letters, digits, `.`, `_`, `-`; at most ~100 characters. */
export function storageName(name: string): string {
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot).toLowerCase().replace(/[^a-z0-9.]/g, "") : "";
  const base = (dot > 0 ? name.slice(0, dot) : name)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._-]+|[._-]+$/g, "")
    .slice(0, 90);
  return `${base || "file"}${extension}`;
}

/**
 * Deletes the given keys and, with `prefix`, everything listed under it (objects a crashed
 * upload may have left). R2 deletes up to 1000 keys per call.
 */
export async function deleteStoredObjects(bucket: R2Bucket, keys: string[], prefix?: string): Promise<void> {
  const all = new Set(keys);
  if (prefix) {
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix, cursor, limit: 1000 });
      for (const object of page.objects) all.add(object.key);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  const list = [...all];
  for (let i = 0; i < list.length; i += 1000) await bucket.delete(list.slice(i, i + 1000));
}
