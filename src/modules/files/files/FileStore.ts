import type { Readable } from 'node:stream';

/** What a store reports of bytes it has written: measured while they streamed through. */
export interface SavedBytes {
  bytes: number;
  /** SHA-256, hex. */
  digest: string;
}

/** A byte range of a read, inclusive at both ends (as HTTP `Range` counts). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where a storage keeps file bytes (local disk, an S3-compatible object store, the remote disk
 * service). Every implementation streams: nothing is held whole in memory, and a failed or refused
 * write leaves nothing behind.
 */
export interface FileStore {
  /** Rejects with `StorageNotAccessible` when the store cannot be read and written. */
  check(): Promise<void>;
  /**
   * Streams `body` to `path`, computing size and digest on the way; beyond `maxBytes` the write is
   * abandoned and rejects with `tooLarge()`.
   */
  save(path: string, body: Readable, maxBytes: number, tooLarge: () => Error): Promise<SavedBytes>;
  /** The bytes at `path` (a range of them when asked). */
  read(path: string, range?: ByteRange): Promise<Readable>;
  remove(path: string): Promise<void>;
  /** Where `path` is, as an address (Delta's `_location`): `file://` on disk, the object's or service's URL otherwise. */
  location(path: string): string;
}
