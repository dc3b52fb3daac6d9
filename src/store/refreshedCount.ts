/** A count taken again no sooner than this many times the time the last one took. */
const SPACING = 10;
/** The longest wait before a failed count is tried again (the wait doubles from `maxAgeMillis`). */
const MAX_BACKOFF_MILLIS = 3_600_000;

/**
 * A count too costly to take on every call (the external store's quads: a scan of the whole server,
 * 17 s at 1.15 M quads, past the server's query time limit at 100,000 resources), answered from the
 * last one taken: the first call waits for it, later ones answer at once and start a new count in
 * the background once the last is `maxAgeMillis` old and ten times as old as it took. One count runs
 * at a time. A failed count is tried again only after a wait doubling from `maxAgeMillis` up to an
 * hour, the last error thrown meanwhile when there is no count yet: a count that cannot finish must
 * not keep the server scanning on every scrape of `/metrics`.
 */
export const refreshedCount = (count: () => Promise<number>, maxAgeMillis: number, now = () => performance.now()): (() => Promise<number>) => {
  let last: { value: number; at: number; wait: number } | undefined;
  let failed: { error: unknown; at: number; wait: number } | undefined;
  let running: Promise<number> | undefined;
  const refresh = (): Promise<number> =>
    (running ??= (async () => {
      const started = now();
      try {
        const value = await count();
        last = { value, at: now(), wait: Math.max(maxAgeMillis, (now() - started) * SPACING) };
        failed = undefined;
        return value;
      } catch (error) {
        failed = { error, at: now(), wait: failed ? Math.min(MAX_BACKOFF_MILLIS, failed.wait * 2) : maxAgeMillis };
        throw error;
      } finally {
        running = undefined;
      }
    })());
  const due = () => !failed || now() - failed.at >= failed.wait;
  return async () => {
    if (!last) {
      if (!due()) throw failed!.error;
      return refresh();
    }
    if (now() - last.at > last.wait && due()) refresh().catch(() => undefined);
    return last.value;
  };
};
