import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storageRejections } from './storages/storageRejections.js';
import type { ByteRange, FileStore, SavedBytes } from './files/FileStore.js';
import { Meter } from './meter.js';

/** Whether `path` is `root` or lies under it (both already resolved). */
export const inside = (root: string, path: string): boolean => {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/** A temporary file of an upload in progress: `{uuid}.{uuid}.part` beside its target (what the start-up sweep looks for). */
export const PART_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

/**
 * A folder of the local file system. Bytes are written to a temporary file next to their place and
 * renamed into it once complete, so a reader never sees a partial file and a failure leaves none.
 * The volume is resolved through its links (`realpath`) at every use, not only when the storage was
 * written (a link can change after), and every path is checked to stay inside the resolved volume.
 */
export class DiskFileStore implements FileStore {
  constructor(
    private readonly storageId: string,
    private readonly volume: string,
    /** Folders volumes must lie in (Delta's `allowed-volumes`). */
    private readonly allowed: readonly string[],
  ) {}

  async check(): Promise<void> {
    const root = await this.root();
    let info;
    try {
      info = await stat(root);
    } catch {
      throw this.refuse(`Volume '${this.volume}' does not exist.`);
    }
    if (!info.isDirectory()) throw this.refuse(`Volume '${this.volume}' is not a directory.`);
    try {
      await access(root, constants.R_OK | constants.W_OK);
    } catch {
      throw this.refuse(`Volume '${this.volume}' does not have read and write access.`);
    }
  }

  async save(path: string, body: Readable, maxBytes: number, tooLarge: () => Error): Promise<SavedBytes> {
    const root = await this.root();
    const target = this.under(root, path);
    await mkdir(dirname(target), { recursive: true });
    // A folder on the way may be a link out of the volume: the real folder is written to, once checked.
    const folder = await realpath(dirname(target));
    if (!inside(root, folder)) throw this.refuse(`The folder of '${path}' leads out of volume '${this.volume}'.`);
    const final = join(folder, target.slice(dirname(target).length + 1));
    const temporary = `${final}.${randomUUID()}.part`;
    const meter = new Meter(maxBytes, tooLarge);
    try {
      await pipeline(body, meter, createWriteStream(temporary, { flags: 'wx' }));
      await rename(temporary, final);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return meter.result();
  }

  async read(path: string, range?: ByteRange): Promise<Readable> {
    const root = await this.root().catch(async (error: unknown) => {
      throw (await this.mounted()) ? error : this.unmounted();
    });
    const real = await realpath(this.under(root, path));
    if (!inside(root, real)) throw this.refuse(`'${path}' leads out of volume '${this.volume}'.`);
    // Reads of 1 MiB: a large download costs fewer trips through the event loop.
    const stream = createReadStream(real, { highWaterMark: 1024 * 1024, ...(range ? { start: range.start, end: range.end } : {}) });
    // Fails now (a missing file) rather than in the middle of a response.
    try {
      await new Promise<void>((ok, fail) => {
        stream.once('open', () => ok());
        stream.once('error', fail);
      });
    } catch (error) {
      throw (await this.mounted()) ? error : this.unmounted();
    }
    return stream;
  }

  async remove(path: string): Promise<void> {
    const root = await this.root();
    const target = this.under(root, path);
    const folder = await realpath(dirname(target)).catch(() => undefined);
    if (folder === undefined || !inside(root, folder)) return;
    await rm(join(folder, target.slice(dirname(target).length + 1)), { force: true });
  }

  location(path: string): string {
    return pathToFileURL(join(resolve(this.volume), path)).href;
  }

  /** The volume through its links, refused unless it lies in an allowed folder (itself resolved). */
  /**
   * Replicas share disk storages through a volume every one of them mounts: one that does not see
   * the volume says so, rather than answer as if the bytes were gone.
   */
  private mounted(): Promise<boolean> {
    return stat(resolve(this.volume)).then(
      (info) => info.isDirectory(),
      () => false,
    );
  }

  private unmounted(): Error {
    return new Error(
      `the volume '${this.volume}' of storage '${this.storageId}' is not mounted on this replica (every replica must mount every disk storage's volume)`,
    );
  }

  private async root(): Promise<string> {
    let root: string;
    try {
      root = await realpath(this.volume);
    } catch {
      throw this.refuse(`Volume '${this.volume}' does not exist.`);
    }
    const allowed = await Promise.all(this.allowed.map((a) => realpath(a).catch(() => resolve(a))));
    if (!allowed.some((a) => inside(a, root))) throw this.refuse(`Volume '${this.volume}' is not one of the allowed volumes.`);
    return root;
  }

  /** Paths are generated by the service; still, none may leave the volume. */
  private under(root: string, path: string): string {
    const target = resolve(root, path);
    if (target === root || !inside(root, target)) throw this.refuse(`Path '${path}' leaves volume '${this.volume}'.`);
    return target;
  }

  private refuse(details: string) {
    return storageRejections.storageNotAccessible(this.storageId, details);
  }
}
