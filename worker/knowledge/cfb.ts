/**
 * A small reader for OLE Compound File Binary containers ([MS-CFB]): the envelope of legacy
 * .doc and .xls files, and of password-protected .docx/.xlsx (EncryptedPackage). It lists the
 * streams and reads one by name; it writes nothing. Every sector chain is walked with a step
 * limit, so a crafted loop in the allocation table ends as a `CfbError`, never a hang.
 */

export const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const;

const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const NO_STREAM = 0xffffffff;
const DIRECTORY_ENTRY_SIZE = 128;

export class CfbError extends Error {
  override name = "CfbError";
}

export interface CfbEntry {
  name: string;
  /** 1 storage, 2 stream, 5 root. */
  type: number;
  startSector: number;
  size: number;
}

export interface CfbFile {
  entries: CfbEntry[];
  /** The stream of that name (case-insensitive, first match), or null. */
  read(name: string): Uint8Array | null;
  has(name: string): boolean;
}

export function looksLikeCfb(bytes: Uint8Array): boolean {
  return bytes.length >= 512 && CFB_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** Parses the container's header, allocation tables and directory. Throws `CfbError` when damaged. */
export function openCfb(bytes: Uint8Array): CfbFile {
  if (!looksLikeCfb(bytes)) throw new CfbError("not a compound file");
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorShift = dv.getUint16(0x1e, true);
  if (sectorShift !== 9 && sectorShift !== 12) throw new CfbError("bad sector size");
  const sectorSize = 1 << sectorShift;
  const miniSectorSize = 1 << dv.getUint16(0x20, true);
  const miniCutoff = dv.getUint32(0x38, true);
  // Sector n starts at (n + 1) * sectorSize; the header fills sector "-1". A short last sector is kept.
  const sectorCount = Math.ceil((bytes.length - sectorSize) / sectorSize);
  const sectorOffset = (sector: number) => {
    if (sector >= sectorCount) throw new CfbError("sector out of range");
    return (sector + 1) * sectorSize;
  };
  const sectorBytes = (sector: number) => {
    const offset = sectorOffset(sector);
    return bytes.subarray(offset, Math.min(offset + sectorSize, bytes.length));
  };
  const u32 = (sector: Uint8Array) => new DataView(sector.buffer, sector.byteOffset, sector.byteLength);

  // The sectors holding the FAT: 109 in the header, the rest in a chain of DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const s = dv.getUint32(0x4c + i * 4, true);
    if (s !== FREE_SECTOR && s !== END_OF_CHAIN) fatSectors.push(s);
  }
  let difat = dv.getUint32(0x44, true);
  for (let steps = 0; difat !== END_OF_CHAIN && difat !== FREE_SECTOR; steps++) {
    if (steps > sectorCount) throw new CfbError("DIFAT loop");
    const sector = u32(sectorBytes(difat));
    const perSector = sectorSize / 4 - 1;
    for (let i = 0; i < perSector; i++) {
      const s = sector.getUint32(i * 4, true);
      if (s !== FREE_SECTOR && s !== END_OF_CHAIN) fatSectors.push(s);
    }
    difat = sector.getUint32(perSector * 4, true);
  }
  // A real file needs one FAT sector per sectorSize/4 sectors; more is a crafted table.
  if (fatSectors.length > sectorCount) throw new CfbError("FAT larger than the file");
  const fat = new Uint32Array(fatSectors.length * (sectorSize / 4));
  fatSectors.forEach((s, i) => {
    const sector = u32(sectorBytes(s));
    for (let j = 0; j < sectorSize / 4 && j * 4 < sector.byteLength; j++) fat[i * (sectorSize / 4) + j] = sector.getUint32(j * 4, true);
  });

  const chain = (start: number, table: Uint32Array, limit: number) => {
    const out: number[] = [];
    for (let s = start; s !== END_OF_CHAIN; ) {
      if (s >= table.length || out.length > limit) throw new CfbError("broken sector chain");
      out.push(s);
      s = table[s]!;
    }
    return out;
  };
  const readChain = (start: number, size: number) => {
    const sectors = chain(start, fat, sectorCount);
    const out = new Uint8Array(Math.min(size, sectors.length * sectorSize));
    sectors.forEach((s, i) => {
      const part = sectorBytes(s);
      const at = i * sectorSize;
      if (at < out.length) out.set(part.subarray(0, Math.min(part.length, out.length - at)), at);
    });
    return out;
  };

  const directorySectors = chain(dv.getUint32(0x30, true), fat, sectorCount);
  const directory = readChain(dv.getUint32(0x30, true), directorySectors.length * sectorSize);
  const dd = u32(directory);
  const entries: CfbEntry[] = [];
  for (let p = 0; p + DIRECTORY_ENTRY_SIZE <= directory.length; p += DIRECTORY_ENTRY_SIZE) {
    const nameLength = Math.min(dd.getUint16(p + 0x40, true), 64);
    const type = directory[p + 0x42]!;
    if (type === 0) continue;
    let name = "";
    for (let i = 0; i + 2 < nameLength; i += 2) name += String.fromCharCode(dd.getUint16(p + i, true));
    // Version 3 files keep a 32-bit size; the high half may hold garbage there.
    const size = sectorShift === 9 ? dd.getUint32(p + 0x78, true) : dd.getUint32(p + 0x78, true) + dd.getUint32(p + 0x7c, true) * 2 ** 32;
    entries.push({ name, type, startSector: dd.getUint32(p + 0x74, true), size });
  }
  const root = entries.find((e) => e.type === 5);
  if (!root) throw new CfbError("no root entry");

  let miniStream: Uint8Array | null = null;
  let miniFat: Uint32Array | null = null;
  const readMini = (start: number, size: number) => {
    if (!miniStream || !miniFat) {
      miniStream = root.startSector === NO_STREAM || root.startSector === END_OF_CHAIN ? new Uint8Array(0) : readChain(root.startSector, root.size);
      const miniFatStart = dv.getUint32(0x3c, true);
      const raw = miniFatStart === END_OF_CHAIN ? new Uint8Array(0) : readChain(miniFatStart, dv.getUint32(0x40, true) * sectorSize);
      miniFat = new Uint32Array(Math.floor(raw.length / 4));
      const rd = u32(raw);
      for (let i = 0; i < miniFat.length; i++) miniFat[i] = rd.getUint32(i * 4, true);
    }
    const sectors = chain(start, miniFat, miniFat.length);
    const out = new Uint8Array(Math.min(size, sectors.length * miniSectorSize));
    const stream = miniStream;
    sectors.forEach((s, i) => {
      const from = s * miniSectorSize;
      const at = i * miniSectorSize;
      if (at < out.length) out.set(stream.subarray(from, Math.min(from + miniSectorSize, from + out.length - at)), at);
    });
    return out;
  };

  const find = (name: string) => {
    const wanted = name.toLowerCase();
    return entries.find((e) => e.type === 2 && e.name.toLowerCase() === wanted);
  };
  return {
    entries,
    has: (name) => find(name) !== undefined,
    read(name) {
      const entry = find(name);
      if (!entry) return null;
      if (entry.size === 0) return new Uint8Array(0);
      return entry.size < miniCutoff ? readMini(entry.startSector, entry.size) : readChain(entry.startSector, entry.size);
    },
  };
}
