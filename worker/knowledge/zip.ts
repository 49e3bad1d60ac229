/**
 * Reads the central directory of a zip (docx, xlsx) without inflating anything (the sniffer uses
 * it to check the main part is there), and inflates entries as streams. The sizes a zip declares
 * are what the file claims, never trusted: every inflated byte is counted as it comes out
 * (`InflateMeter`), so a zip bomb fails at the cap whatever its headers say.
 */

import { Inflate } from "pako";

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

/** Counts the bytes inflated from one file; `inflate` throws (the caller's error) past its cap. */
export interface InflateMeter {
  inflate(bytes: number): void;
}

/**
 * Compressed bytes fed to the inflater at a time. Deflate expands at most ~1032:1, so one slice
 * inflates to at most ~1 MB, handed over in `INFLATED_CHUNK` pieces that the meter counts as they
 * come: a bomb is stopped within a chunk of its cap.
 */
const DEFLATED_SLICE = 1024;
const INFLATED_CHUNK = 65_536;
const STORED_SLICE = 65_536;

/** The entry's compressed bytes (bounded by the file, whatever the directory claims). */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const dv = view(bytes);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== 0x04034b50) throw new Error(`bad local header for ${entry.name}`);
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  return bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
}

/**
 * Streams an entry's inflated bytes to `onBytes`, each piece counted by `meter` first (which
 * throws past its cap), stopping early when `onBytes` returns false. A piece is only valid during
 * the call (copy it to keep it). Throws for a method other than stored or deflated, a local header
 * outside the file, or corrupt deflate data.
 *
 * Inflated with pako (zlib in JavaScript, already in the bundle through mammoth's JSZip) rather than
 * DecompressionStream: workerd's stream hands out 4 KB pieces at ~0.35 ms each (100 MB took 9 s in
 * the test runtime), pako 64 KB pieces synchronously (~17 ms a MB, in Node and workerd alike).
 */
export async function streamZipEntry(bytes: Uint8Array, entry: ZipEntry, meter: InflateMeter, onBytes: (chunk: Uint8Array) => boolean | void): Promise<void> {
  const data = entryData(bytes, entry);
  if (entry.method === 0) {
    for (let at = 0; at < data.length; at += STORED_SLICE) {
      const piece = data.subarray(at, at + STORED_SLICE);
      meter.inflate(piece.length);
      if (onBytes(piece) === false) return;
    }
    return;
  }
  if (entry.method !== 8) throw new Error(`unsupported zip method ${entry.method} for ${entry.name}`);
  const inflater = new Inflate({ raw: true, chunkSize: INFLATED_CHUNK });
  let stopped = false;
  inflater.onData = (chunk) => {
    if (stopped) return;
    meter.inflate(chunk.length);
    if (onBytes(chunk) === false) stopped = true;
  };
  let ended = false;
  inflater.onEnd = (status) => {
    ended = true;
    inflater.err = status;
  };
  for (let at = 0; at < data.length && !stopped && !ended; at += DEFLATED_SLICE) {
    const last = at + DEFLATED_SLICE >= data.length;
    if (!inflater.push(data.subarray(at, at + DEFLATED_SLICE), last) && inflater.err) throw new Error(`corrupt deflate data in ${entry.name} (${inflater.err})`);
    // Let timers and other requests run between slices (the inflate itself is synchronous).
    if ((at / DEFLATED_SLICE) % 256 === 255) await Promise.resolve();
  }
  if (ended && inflater.err) throw new Error(`corrupt deflate data in ${entry.name} (${inflater.err})`);
}

/** Streams an entry's UTF-8 text to `onText` in pieces, stopping early when it returns false. */
export async function streamZipText(bytes: Uint8Array, entry: ZipEntry, meter: InflateMeter, onText: (text: string) => boolean | void): Promise<void> {
  const decoder = new TextDecoder();
  let stopped = false;
  await streamZipEntry(bytes, entry, meter, (chunk) => {
    if (onText(decoder.decode(chunk, { stream: true })) === false) stopped = true;
    return !stopped;
  });
  if (!stopped) onText(decoder.decode());
}

/**
 * A small entry's whole text (styles, workbook, relationships). Past `maxChars` it stops and
 * calls `tooLong` (which throws): a part read whole must stay small whatever it inflates to.
 */
export async function readZipText(bytes: Uint8Array, entry: ZipEntry, meter: InflateMeter, maxChars: number, tooLong: () => Error): Promise<string> {
  const parts: string[] = [];
  let length = 0;
  await streamZipText(bytes, entry, meter, (text) => {
    length += text.length;
    if (length > maxChars) throw tooLong();
    parts.push(text);
  });
  return parts.join("");
}

/**
 * An entry's whole inflated bytes, or null once they would pass `maxBytes` (inflating stops there).
 */
export async function inflateZipEntry(bytes: Uint8Array, entry: ZipEntry, meter: InflateMeter, maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  await streamZipEntry(bytes, entry, meter, (chunk) => {
    length += chunk.byteLength;
    if (length > maxBytes) return false;
    chunks.push(chunk.slice());
  });
  if (length > maxBytes) return null;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const crcTable = /* @__PURE__ */ (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (the zip polynomial) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip of stored (uncompressed) entries: what mammoth and SheetJS receive, built from parts Tala
 * inflated and measured itself, so the libraries have nothing left to inflate and every size they
 * read is true.
 */
export function writeStoredZip(parts: readonly { name: string; data: Uint8Array }[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = parts.map((p) => encoder.encode(p.name));
  let size = 22;
  parts.forEach((p, i) => (size += 30 + 46 + 2 * names[i]!.length + p.data.length));
  const out = new Uint8Array(size);
  const dv = view(out);
  const central: number[] = [];
  const crcs = parts.map((p) => crc32(p.data));
  let at = 0;
  parts.forEach((p, i) => {
    central.push(at);
    const name = names[i]!;
    dv.setUint32(at, 0x04034b50, true);
    dv.setUint16(at + 4, 20, true);
    dv.setUint16(at + 6, 0x0800, true); // names are UTF-8
    dv.setUint32(at + 14, crcs[i]!, true);
    dv.setUint32(at + 18, p.data.length, true);
    dv.setUint32(at + 22, p.data.length, true);
    dv.setUint16(at + 26, name.length, true);
    out.set(name, at + 30);
    out.set(p.data, at + 30 + name.length);
    at += 30 + name.length + p.data.length;
  });
  const directory = at;
  parts.forEach((p, i) => {
    const name = names[i]!;
    dv.setUint32(at, CENTRAL_HEADER, true);
    dv.setUint16(at + 4, 20, true);
    dv.setUint16(at + 6, 20, true);
    dv.setUint16(at + 8, 0x0800, true);
    dv.setUint32(at + 16, crcs[i]!, true);
    dv.setUint32(at + 20, p.data.length, true);
    dv.setUint32(at + 24, p.data.length, true);
    dv.setUint16(at + 28, name.length, true);
    dv.setUint32(at + 42, central[i]!, true);
    out.set(name, at + 46);
    at += 46 + name.length;
  });
  dv.setUint32(at, EOCD, true);
  dv.setUint16(at + 8, parts.length, true);
  dv.setUint16(at + 10, parts.length, true);
  dv.setUint32(at + 12, at - directory, true);
  dv.setUint32(at + 16, directory, true);
  return out;
}
