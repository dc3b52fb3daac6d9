import { crc32 } from 'node:zlib';

/** One member of an archive: its path, its exact size, and its bytes as they come (a file's stream, or a buffer). */
export interface ArchiveMember {
  path: string;
  size: number;
  mtime: Date;
  bytes: () => AsyncIterable<Buffer> | Iterable<Buffer> | Promise<AsyncIterable<Buffer>>;
}

/** A member whose stream ends with a different length would corrupt the archive: stop instead. */
const checkedBytes = async function* (member: ArchiveMember): AsyncGenerator<Buffer> {
  let written = 0;
  for await (const chunk of await member.bytes()) {
    written += chunk.length;
    if (written > member.size) throw new Error(`archive member '${member.path}' is longer than its recorded ${member.size} bytes`);
    yield chunk;
  }
  if (written !== member.size) throw new Error(`archive member '${member.path}' has ${written} bytes, ${member.size} recorded`);
};

const octal = (value: number, width: number): string => value.toString(8).padStart(width - 1, '0') + '\0';

/** A ustar header (POSIX.1-1988): paths already checked to fit the name and prefix fields. */
const tarHeader = (m: ArchiveMember): Buffer => {
  const h = Buffer.alloc(512);
  const cut = m.path.lastIndexOf('/');
  h.write(m.path.slice(cut + 1), 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  // Sizes of 8 GiB and more do not fit 11 octal digits: the base-256 form GNU tar and bsdtar read.
  if (m.size < 8 ** 11) h.write(octal(m.size, 12), 124, 'ascii');
  else {
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(m.size), 128);
  }
  h.write(octal(Math.floor(m.mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  if (cut > 0) h.write(m.path.slice(0, cut), 345, 155, 'utf8');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
};

/** A tar stream: each member's header, bytes and padding to 512, then two zero blocks. Never more than a chunk in memory. */
export const tarStream = async function* (members: AsyncIterable<ArchiveMember> | Iterable<ArchiveMember>): AsyncGenerator<Buffer> {
  for await (const m of members) {
    yield tarHeader(m);
    yield* checkedBytes(m);
    const pad = (512 - (m.size % 512)) % 512;
    if (pad) yield Buffer.alloc(pad);
  }
  yield Buffer.alloc(1024);
};

const MAX32 = 0xffffffff;

const dosTime = (d: Date): { time: number; date: number } => ({
  time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
  date: ((Math.max(1980, d.getUTCFullYear()) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
});

interface Written {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  zip64: boolean;
  time: number;
  date: number;
}

/**
 * A zip stream, entries stored (no compression: files are often compressed already, and the CPU
 * stays free), each CRC-32 computed while its bytes pass and written in a data descriptor after
 * them (general purpose bit 3), names in UTF-8 (bit 11). Zip64 fields only where a size or an
 * offset needs them.
 */
export const zipStream = async function* (members: AsyncIterable<ArchiveMember> | Iterable<ArchiveMember>): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  for await (const m of members) {
    const name = Buffer.from(m.path, 'utf8');
    const zip64 = m.size >= MAX32;
    const { time, date } = dosTime(m.mtime);
    const extra = zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(zip64 ? 45 : 20, 4);
    local.writeUInt16LE(0x0808, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(zip64 ? MAX32 : 0, 18);
    local.writeUInt32LE(zip64 ? MAX32 : 0, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    yield Buffer.concat([local, name, extra]);
    let crc = 0;
    for await (const chunk of checkedBytes(m)) {
      crc = crc32(chunk, crc);
      yield chunk;
    }
    const descriptor = Buffer.alloc(zip64 ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    if (zip64) {
      descriptor.writeBigUInt64LE(BigInt(m.size), 8);
      descriptor.writeBigUInt64LE(BigInt(m.size), 16);
    } else {
      descriptor.writeUInt32LE(m.size, 8);
      descriptor.writeUInt32LE(m.size, 12);
    }
    yield descriptor;
    written.push({ name, crc, size: m.size, offset, zip64, time, date });
    offset += local.length + name.length + extra.length + m.size + descriptor.length;
  }
  const start = offset;
  for (const w of written) {
    const big: bigint[] = [];
    if (w.size >= MAX32) big.push(BigInt(w.size), BigInt(w.size));
    if (w.offset >= MAX32) big.push(BigInt(w.offset));
    const extra = Buffer.alloc(big.length ? 4 + 8 * big.length : 0);
    if (big.length) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8 * big.length, 2);
      big.forEach((v, i) => extra.writeBigUInt64LE(v, 4 + 8 * i));
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 45, 4);
    central.writeUInt16LE(w.zip64 || big.length ? 45 : 20, 6);
    central.writeUInt16LE(0x0808, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(w.time, 12);
    central.writeUInt16LE(w.date, 14);
    central.writeUInt32LE(w.crc, 16);
    central.writeUInt32LE(w.size >= MAX32 ? MAX32 : w.size, 20);
    central.writeUInt32LE(w.size >= MAX32 ? MAX32 : w.size, 24);
    central.writeUInt16LE(w.name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(w.offset >= MAX32 ? MAX32 : w.offset, 42);
    const record = Buffer.concat([central, w.name, extra]);
    offset += record.length;
    yield record;
  }
  const size = offset - start;
  const needs64 = written.length >= 0xffff || start >= MAX32 || size >= MAX32;
  if (needs64) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE((3 << 8) | 45, 12);
    end64.writeUInt16LE(45, 14);
    end64.writeBigUInt64LE(BigInt(written.length), 24);
    end64.writeBigUInt64LE(BigInt(written.length), 32);
    end64.writeBigUInt64LE(BigInt(size), 40);
    end64.writeBigUInt64LE(BigInt(start), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset), 8);
    locator.writeUInt32LE(1, 16);
    yield Buffer.concat([end64, locator]);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(written.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(written.length, 0xffff), 10);
  end.writeUInt32LE(needs64 ? MAX32 : size, 12);
  end.writeUInt32LE(needs64 ? MAX32 : start, 16);
  yield end;
};
