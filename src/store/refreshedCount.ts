/**
 * A count too costly to take on every call (the external store's quads: a scan of the whole server,
 * 17 s at 1.15 M quads), answered from the last one taken: the first call waits for it, later ones
 * answer at once and start a new count in the background once the last is `maxAgeMillis` old. One
 * count runs at a time; a failed one is retried at the next call.
 */
export const refreshedCount = (count: () => Promise<number>, maxAgeMillis: number, now = () => performance.now()): (() => Promise<number>) => {
  let last: { value: number; at: number } | undefined;
  let running: Promise<number> | undefined;
  const refresh = (): Promise<number> =>
    (running ??= count().then(
      (value) => {
        last = { value, at: now() };
        running = undefined;
        return value;
      },
      (error: unknown) => {
        running = undefined;
        throw error;
      },
    ));
  return async () => {
    if (!last) return refresh();
    if (now() - last.at > maxAgeMillis) refresh().catch(() => undefined);
    return last.value;
  };
};
