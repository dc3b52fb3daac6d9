import { expect } from 'chai';
import { refreshedCount } from '../../src/store/refreshedCount.js';

describe('a costly count answered from the last one taken', () => {
  it('waits for the first count, answers the last one until it is too old, then counts again in the background, one count at a time', async () => {
    let clock = 0;
    let counts = 0;
    let release: (() => void) | undefined;
    const count = async () => {
      counts++;
      if (counts > 1) await new Promise<void>((r) => (release = r));
      return counts * 10;
    };
    const quads = refreshedCount(count, 1_000, () => clock);
    expect(await quads()).to.equal(10);
    clock = 1_000;
    expect(await quads()).to.equal(10);
    expect(counts).to.equal(1);
    clock = 1_001;
    expect(await quads()).to.equal(10);
    expect(await quads()).to.equal(10);
    expect(counts).to.equal(2);
    release!();
    await new Promise((r) => setImmediate(r));
    expect(await quads()).to.equal(20);
  });

  it('counts again at the next call when a count failed', async () => {
    let fail = true;
    const quads = refreshedCount(async () => {
      if (fail) throw new Error('store down');
      return 7;
    }, 1_000);
    let failed: unknown;
    await quads().catch((error: unknown) => (failed = error));
    expect(failed).to.be.instanceOf(Error);
    fail = false;
    expect(await quads()).to.equal(7);
  });
});
