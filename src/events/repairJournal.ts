import { closeSync, fdatasyncSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eachLine, readHead } from './journalRecords.js';

export interface RepairReport {
  /** Byte ranges moved out of the journal (start inclusive, end exclusive), with the event each followed. */
  quarantined: { start: number; end: number; after: number }[];
  /** Where they were moved; undefined when the journal was sound. */
  quarantineFile?: string;
}

/**
 * Moves every damaged record (and an unfinished last line) of a journal to a quarantine file beside
 * it and rewrites the journal with the sound records only, atomically (new file, fsync, rename).
 * Sequence numbers are kept: the log reads gaps as it reads pruned events.
 */
export const repairJournal = (path: string, now = new Date()): RepairReport => {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  const sound: Buffer[] = [];
  const damaged: Buffer[] = [];
  const quarantined: RepairReport['quarantined'] = [];
  let last = 0;
  let end = 0;
  eachLine(fd, size, (data, from, lineEnd, offset) => {
    const line = Buffer.from(data.subarray(from, lineEnd + 1));
    end = offset + line.length;
    if (data[from] === 0x20) {
      // A pruned event: blanked on purpose, kept as it is.
      sound.push(line);
      return;
    }
    const head = readHead(data, from, lineEnd);
    if (head && head.seq > last) {
      last = head.seq;
      sound.push(line);
      return;
    }
    damaged.push(line);
    const previous = quarantined[quarantined.length - 1];
    if (previous && previous.end === offset) previous.end = end;
    else quarantined.push({ start: offset, end, after: last });
  });
  if (end < size) {
    const tail = Buffer.alloc(size - end);
    readSync(fd, tail, 0, tail.length, end);
    damaged.push(tail);
    quarantined.push({ start: end, end: size, after: last });
  }
  closeSync(fd);
  if (!quarantined.length) return { quarantined };
  const quarantineFile = join(dirname(path), `quarantine-${now.toISOString().replace(/[:.]/g, '-')}.log`);
  writeDurably(quarantineFile, damaged);
  const next = `${path}.repaired`;
  writeDurably(next, sound);
  renameSync(next, path);
  const dir = openSync(dirname(path), 'r');
  fdatasyncSync(dir);
  closeSync(dir);
  return { quarantined, quarantineFile };
};

const writeDurably = (path: string, parts: Buffer[]): void => {
  const fd = openSync(path, 'w');
  for (const part of parts) {
    let done = 0;
    while (done < part.length) done += writeSync(fd, part, done);
  }
  fdatasyncSync(fd);
  closeSync(fd);
};
