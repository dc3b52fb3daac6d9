import { requestRejections as rejections } from '../kernel/requestRejections.js';

/**
 * Refuses writes once the store holds `limit` quads. Counting the embedded store walks all of it
 * (measured: 45% of a create's CPU at 100k quads, tens of ms at millions), so an exact count is
 * taken at most every `maxAgeMillis`, and in between the quads written since (an upper bound:
 * every quad loaded, none removed) are added to it. Once that estimate is within 10% of the limit
 * every write counts again, so the refusal stays exact and well before Oxigraph's ceiling.
 */
export const capacityGuard = (size: () => Promise<number>, written: () => number, limit: number, maxAgeMillis = 60_000, now = () => performance.now()) => {
  let counted = 0;
  let writtenAtCount = written();
  let at = Number.NEGATIVE_INFINITY;
  return async (): Promise<void> => {
    const estimate = counted + (written() - writtenAtCount);
    if (now() - at > maxAgeMillis || estimate >= limit * 0.9) {
      counted = await size();
      writtenAtCount = written();
      at = now();
    }
    if (counted >= limit) throw rejections.storeFull(counted, limit);
  };
};
