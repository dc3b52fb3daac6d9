import { expect } from 'chai';
import { capacityGuard } from '../../src/store/capacityGuard.js';

describe('capacityGuard', () => {
  it('reuses a count far from the limit, adds what was written since, and counts every write near it', async () => {
    let quads = 100;
    let written = 0;
    let counts = 0;
    let clock = 0;
    const guard = capacityGuard(
      async () => (counts++, quads),
      () => written,
      1_000,
      1_000,
      () => clock,
    );
    await guard();
    await guard();
    expect(counts).to.equal(1);
    clock = 2_000;
    await guard();
    expect(counts).to.equal(2);
    // Writes since the count bring the estimate near the limit: count again at once.
    written += 850;
    quads = 950;
    await guard();
    expect(counts).to.equal(3);
    quads = 1_000;
    const refused = await guard().catch((e: { type: string }) => e.type);
    expect(refused).to.equal('StoreCapacityReached');
    expect(counts).to.equal(4);
  });
});
