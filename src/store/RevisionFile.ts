import {
  closeSync,
  existsSync,
  fsync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  truncateSync,
  writeSync,
  fsyncSync,
  createReadStream,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';

const CHUNK = 4 * 1024 * 1024;

/**
 * The embedded store's persisted copy of every revision graph: an append-only N-Quads file,
 * written as revisions are projected. The journal stays the source of truth; this file only spares
 * a restart from re-expanding every revision. Its length is the store's checkpoint.
 */
export class RevisionFile {
  private fd: number;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  private written: number;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path)) closeSync(openSync(path, 'w'));
    this.fd = openSync(path, 'a');
    this.written = statSync(path).size;
  }

  append(nquads: string): void {
    if (!nquads) return;
    this.buffered.push(nquads);
    this.bufferedBytes += nquads.length;
    if (this.bufferedBytes > CHUNK) this.flush();
  }

  /** Writes buffered quads and returns the file's length, the point a snapshot covers. */
  flush(sync = false): number {
    if (this.buffered.length) {
      const bytes = Buffer.from(this.buffered.join(''));
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
      this.written += bytes.length;
      this.buffered = [];
      this.bufferedBytes = 0;
    }
    if (sync) fsyncSync(this.fd);
    return this.written;
  }

  /**
   * Cuts the file back to what a snapshot covered: later revisions are replayed from the log.
   * False when the file is shorter than that (it was not durable when the snapshot was taken).
   */
  truncate(length: number): boolean {
    this.flush();
    if (this.written < length) return false;
    if (this.written > length) {
      truncateSync(this.path, length);
      this.written = length;
    }
    return true;
  }

  /** Makes everything written so far durable, off the event loop. */
  sync(): Promise<void> {
    this.flush();
    return new Promise((resolve, reject) => fsync(this.fd, (error) => (error ? reject(error) : resolve())));
  }

  /** Streams the file in chunks of bytes cut at line ends, for bulk loading (no decoding to strings and back). */
  *chunks(): Generator<Uint8Array> {
    this.flush();
    const fd = openSync(this.path, 'r');
    try {
      let carry = Buffer.alloc(0);
      let position = 0;
      for (;;) {
        const buffer = Buffer.allocUnsafe(CHUNK);
        const read = readSync(fd, buffer, 0, CHUNK, position);
        if (read === 0) break;
        position += read;
        const data = carry.length ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
        const cut = data.lastIndexOf(0x0a) + 1;
        carry = Buffer.from(data.subarray(cut));
        if (cut) yield data.subarray(0, cut);
      }
      if (carry.length) yield carry;
    } finally {
      closeSync(fd);
    }
  }

  /** Rewrites the file without the quads of the given graphs, spelled as N-Quads terms `<…>` (permanent deletion). */
  async remove(graphs: ReadonlySet<string>): Promise<void> {
    this.flush();
    const tmp = `${this.path}.tmp`;
    const out = openSync(tmp, 'w');
    // The graph is the last term of a line: `<s> <p> <o> <g> .`
    const inGraph = (line: string) => {
      const start = line.lastIndexOf(' <') + 1;
      const end = line.lastIndexOf('> .') + 1;
      return start > 0 && end > start && graphs.has(line.slice(start, end));
    };
    const lines = createInterface({ input: createReadStream(this.path), crlfDelay: Infinity });
    let pending: string[] = [];
    let size = 0;
    const write = () => {
      const bytes = Buffer.from(pending.join(''));
      let done = 0;
      while (done < bytes.length) done += writeSync(out, bytes, done);
      size += bytes.length;
      pending = [];
    };
    for await (const line of lines) {
      if (inGraph(line)) continue;
      pending.push(`${line}\n`);
      if (pending.length > 10_000) write();
    }
    write();
    fsyncSync(out);
    closeSync(out);
    closeSync(this.fd);
    renameSync(tmp, this.path);
    this.fd = openSync(this.path, 'a');
    this.written = size;
  }

  close(): void {
    this.flush(true);
    closeSync(this.fd);
  }
}
