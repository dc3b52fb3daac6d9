import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/**
 * The journal's record format: one line `seq \t key \t rev \t json \t crc32`, the checksum (8 hex
 * digits) covering every byte before its tab. JSON text never holds a raw tab or newline. Records
 * written before checksums existed have four fields and are read as they are.
 */
export const record = (seq: number, key: string, rev: number, rest: unknown): Buffer => {
  const body = Buffer.from(`${seq}\t${JSON.stringify(key)}\t${rev}\t${JSON.stringify(rest)}`);
  return Buffer.concat([body, Buffer.from(`\t${crc32(body).toString(16).padStart(8, '0')}\n`)]);
};

/** A record that is not what was written (bad checksum, unreadable fields, out of order). */
export interface Damage {
  offset: number;
  length: number;
  /** The last sound event before it. */
  after: number;
}

/** The sequence number, key and revision of a sound record; undefined when the record is damaged. */
export const readHead = (data: Buffer, from: number, end: number): { seq: number; key: string; rev: number } | undefined => {
  const t1 = data.indexOf(9, from);
  const t2 = t1 === -1 ? -1 : data.indexOf(9, t1 + 1);
  const t3 = t2 === -1 ? -1 : data.indexOf(9, t2 + 1);
  if (t3 === -1 || t3 >= end) return undefined;
  const t4 = data.indexOf(9, t3 + 1);
  if (t4 !== -1 && t4 < end) {
    const stored = data.toString('latin1', t4 + 1, end);
    if (!/^[0-9a-f]{8}$/.test(stored) || crc32(data.subarray(from, t4)) !== parseInt(stored, 16)) return undefined;
  }
  const seq = Number(data.toString('latin1', from, t1));
  const rev = Number(data.toString('latin1', t2 + 1, t3));
  if (!Number.isSafeInteger(seq) || seq < 1 || !Number.isSafeInteger(rev) || rev < 0) return undefined;
  try {
    const key = JSON.parse(data.toString('utf8', t1 + 1, t2)) as unknown;
    return typeof key === 'string' ? { seq, key, rev } : undefined;
  } catch {
    return undefined;
  }
};

const CHUNK = 16 * 1024 * 1024;
const NL = 0x0a;

/** Calls `line` for every complete line of the first `size` bytes of a file (without its newline). */
export const eachLine = (fd: number, size: number, line: (data: Buffer, from: number, end: number, offset: number) => void): void => {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let position = 0;
  let carry = Buffer.alloc(0);
  let lineStart = 0;
  while (position < size) {
    const read = readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
    const data = carry.length ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
    let from = 0;
    for (let nl = data.indexOf(NL, from); nl !== -1; nl = data.indexOf(NL, from)) {
      line(data, from, nl, lineStart);
      lineStart += nl - from + 1;
      from = nl + 1;
    }
    carry = Buffer.from(data.subarray(from));
    position += read;
  }
};

/** Damage followed by sound records: the journal cannot be trusted until an operator decides. */
export class JournalDamaged extends Error {
  constructor(
    readonly path: string,
    readonly damage: Damage,
  ) {
    super(
      `The journal ${path} is damaged at byte ${damage.offset} (${damage.length} bytes, the record after event ${damage.after}) while later records are sound. ` +
        `Nothing was changed. To go on without the damaged records, stop every process on this data directory and run \`npm run journal -- repair\` ` +
        `(with the same DATA_DIR): it moves them to a quarantine file beside the journal and logs their byte ranges; or restore the journal from a backup.`,
    );
  }
}
