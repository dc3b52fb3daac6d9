/** Where an import or export stands: what the progress line shows. */
export interface BulkStatus {
  /** Lines (or items) done so far, and in all (undefined: not known, as for an export). */
  done: number;
  total?: number;
  errors: number;
  bytes: number;
  elapsedMillis: number;
}

const duration = (seconds: number): string => {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
};

/** One progress line: lines done (of how many), items/s, errors so far, and the time left at the rate so far. */
const progressLine = ({ done, total, errors, bytes, elapsedMillis }: BulkStatus, width = 24): string => {
  const seconds = Math.max(elapsedMillis, 1) / 1000;
  const rate = done / seconds;
  const mib = (bytes / 1024 / 1024).toFixed(1);
  if (total === undefined) return `${done} items, ${Math.round(rate)} items/s, ${mib} MiB, ${duration(seconds)}`;
  const fraction = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(fraction * width);
  const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} lines, ${Math.round(rate)} items/s, ${errors} errors, ETA ${duration(eta)}`;
};

/** Redraws the line in place on a terminal, at most every `everyMillis`; elsewhere prints it that often. */
export const progressWriter = (tty: boolean, write: (text: string) => void, everyMillis = tty ? 200 : 5_000) => {
  let last = 0;
  return {
    show(status: BulkStatus, force = false) {
      if (!force && status.elapsedMillis - last < everyMillis) return;
      last = status.elapsedMillis;
      write(tty ? `\r${progressLine(status)}\u001b[K` : `${progressLine(status)}\n`);
    },
    end(status: BulkStatus, what: string) {
      write(`${tty ? '\r' : ''}${progressLine(status)}${tty ? '\u001b[K' : ''}\n${what}\n`);
    },
  };
};
