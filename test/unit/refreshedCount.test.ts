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
});

describe('a costly count that fails or takes long', () => {
  it('is tried again only after a wait doubling from the maximum age, the last error answered meanwhile', async () => {
    let clock = 0;
    let counts = 0;
    const quads = refreshedCount(
      async () => {
        counts++;
        throw new Error(`timed out ${counts}`);
      },
      1_000,
      () => clock,
    );
    const failure = async () =>
      quads().then(
        () => 'answered',
        (error: Error) => error.message,
      );
    expect(await failure()).to.equal('timed out 1');
    clock = 999;
    expect(await failure()).to.equal('timed out 1');
    expect(counts).to.equal(1);
    clock = 1_000;
    expect(await failure()).to.equal('timed out 2');
    clock = 2_999;
    expect(await failure()).to.equal('timed out 2');
    clock = 3_000;
    expect(await failure()).to.equal('timed out 3');
    expect(counts).to.equal(3);
  });

  it('once counted, a failing refresh keeps the last value and backs off instead of counting on every call', async () => {
    let clock = 0;
    let counts = 0;
    const quads = refreshedCount(
      async () => {
        counts++;
        if (counts > 1) throw new Error('timed out');
        return 5;
      },
      1_000,
      () => clock,
    );
    expect(await quads()).to.equal(5);
    clock = 1_001;
    for (let i = 0; i < 10; i++) expect(await quads()).to.equal(5);
    await new Promise((r) => setImmediate(r));
    expect(counts).to.equal(2);
    clock = 1_500;
    expect(await quads()).to.equal(5);
    expect(counts).to.equal(2);
    clock = 2_001;
    expect(await quads()).to.equal(5);
    await new Promise((r) => setImmediate(r));
    expect(counts).to.equal(3);
  });

  it('a count that took long is taken again no sooner than ten times its duration', async () => {
    let clock = 0;
    let counts = 0;
    const quads = refreshedCount(
      async () => {
        counts++;
        clock += 500;
        return counts;
      },
      1_000,
      () => clock,
    );
    expect(await quads()).to.equal(1);
    clock += 4_000;
    expect(await quads()).to.equal(1);
    expect(counts).to.equal(1);
    clock += 1_001;
    await quads();
    await new Promise((r) => setImmediate(r));
    expect(counts).to.equal(2);
  });
});
