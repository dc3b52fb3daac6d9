import { rejections } from '../domain/rejections.js';

/**
 * Refuses writes once the store holds `limit` quads. Counting the embedded store walks all of it
 * (measured: 45% of a create's CPU at 100k quads), so far from the limit a count is reused for
 * `maxAgeMillis`; within 10% of the limit every write counts again, so the refusal stays exact.
 */
export const capacityGuard = (size: () => Promise<number>, limit: number, maxAgeMillis = 1_000, now = () => performance.now()) => {
  let counted = 0;
  let at = Number.NEGATIVE_INFINITY;
  return async (): Promise<void> => {
    if (now() - at > maxAgeMillis || counted >= limit * 0.9) {
      counted = await size();
      at = now();
    }
    if (counted >= limit) throw rejections.storeFull(counted, limit);
  };
};
