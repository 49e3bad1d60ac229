/**
 * Reads the central directory of a zip (docx, xlsx) without inflating anything: the sniffer uses
 * it to check the main part is there, and the extractors to refuse zip bombs before a library
 * inflates them. Sizes come from the directory, so they are what the file claims (the inflating
 * libraries still stop at corrupt data).
 */

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (the only methods Office writes). */
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where the entry's local file header starts. */
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
/** More parts than any real document has; a directory past it is refused as damaged. */
const MAX_ENTRIES = 20_000;

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** True when the bytes start like a zip (a local file header, or an empty archive). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

function findEndOfCentralDirectory(bytes: Uint8Array, dv: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes[i] === 0x50 && dv.getUint32(i, true) === EOCD) return i;
  }
  return -1;
}

/**
 * The entries of a zip's central directory, or null when the bytes are not a readable zip
 * (no end record, a directory outside the file, a truncated header).
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] | null {
  if (bytes.length < 22) return null;
  const dv = view(bytes);
  const eocd = findEndOfCentralDirectory(bytes, dv);
  if (eocd < 0) return null;
  let count = dv.getUint16(eocd + 10, true);
  let offset = dv.getUint32(eocd + 16, true);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && dv.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const record = Number(dv.getBigUint64(eocd - 12, true));
    if (record + 56 > bytes.length || dv.getUint32(record, true) !== ZIP64_EOCD) return null;
    count = Number(dv.getBigUint64(record + 32, true));
    offset = Number(dv.getBigUint64(record + 48, true));
  }
  if (count > MAX_ENTRIES || offset >= bytes.length) return null;
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || dv.getUint32(p, true) !== CENTRAL_HEADER) return null;
    const method = dv.getUint16(p + 10, true);
    let compressedSize = dv.getUint32(p + 20, true);
    let uncompressedSize = dv.getUint32(p + 24, true);
    const nameLength = dv.getUint16(p + 28, true);
    const extraLength = dv.getUint16(p + 30, true);
    const commentLength = dv.getUint16(p + 32, true);
    let localHeaderOffset = dv.getUint32(p + 42, true);
    const nameStart = p + 46;
    const extraStart = nameStart + nameLength;
    if (extraStart + extraLength > bytes.length) return null;
    const name = decoder.decode(bytes.subarray(nameStart, extraStart));
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      // Zip64 extended information: the 8-byte values that overflowed, in this order.
      for (let e = extraStart; e + 4 <= extraStart + extraLength; ) {
        const id = dv.getUint16(e, true);
        const size = dv.getUint16(e + 2, true);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff && q + 8 <= e + 4 + size) {
            uncompressedSize = Number(dv.getBigUint64(q, true));
            q += 8;
          }
          if (compressedSize === 0xffffffff && q + 8 <= e + 4 + size) {
            compressedSize = Number(dv.getBigUint64(q, true));
            q += 8;
          }
          if (localHeaderOffset === 0xffffffff && q + 8 <= e + 4 + size) localHeaderOffset = Number(dv.getBigUint64(q, true));
          break;
        }
        e += 4 + size;
      }
    }
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    p = extraStart + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry's bytes as a stream, inflated on the fly (DecompressionStream "deflate-raw", in
 * workerd and Node alike), so a large part never sits in memory whole. Throws for a method
 * other than stored or deflated, or a local header outside the file.
 */
export function openZipEntry(bytes: Uint8Array, entry: ZipEntry): ReadableStream<Uint8Array> {
  const dv = view(bytes);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== 0x04034b50) throw new Error(`bad local header for ${entry.name}`);
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const data = bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
  // Feed the compressed bytes in slices: one enqueue of 15 MB would be inflated in one go.
  let offset = 0;
  const raw = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(data.slice(offset, offset + 65_536));
      offset += 65_536;
    },
  });
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw new Error(`unsupported zip method ${entry.method} for ${entry.name}`);
  // The DOM and workers type libraries disagree on the stream's chunk type; both are Uint8Array.
  return raw.pipeThrough(new DecompressionStream("deflate-raw") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
}

/** Streams an entry's UTF-8 text to `onText` in pieces, stopping early when it returns false. */
export async function streamZipText(bytes: Uint8Array, entry: ZipEntry, onText: (text: string) => boolean | void): Promise<void> {
  const reader = openZipEntry(bytes, entry).getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (onText(decoder.decode(value, { stream: true })) === false) return;
    }
    onText(decoder.decode());
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A small entry's whole text (styles, workbook, relationships). */
export async function readZipText(bytes: Uint8Array, entry: ZipEntry): Promise<string> {
  const parts: string[] = [];
  await streamZipText(bytes, entry, (text) => {
    parts.push(text);
  });
  return parts.join("");
}
