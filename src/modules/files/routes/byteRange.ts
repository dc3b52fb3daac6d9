import type { ByteRange } from '../files/FileStore.js';

/**
 * The one range of a `Range: bytes=...` header against a size: undefined to send everything
 * (no header, several ranges, another unit), `'unsatisfiable'` for a range beyond the bytes.
 */
export const byteRange = (header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined => {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
};
