import { expect } from 'chai';
import { QueryMemoryWatch } from '../../src/store/QueryMemoryWatch.js';

describe('QueryMemoryWatch', () => {
  const watch = (readings: number[], cap: number) => {
    const stopped: number[] = [];
    let at = 0;
    const w = new QueryMemoryWatch(
      cap,
      (grown) => stopped.push(grown),
      () => readings[Math.min(at++, readings.length - 1)]!,
      60_000,
    );
    return { w, stopped };
  };

  it('stops a query once memory grew past the cap above the lowest point seen while queries ran', () => {
    const { w, stopped } = watch([100, 90, 120, 140, 141], 50);
    w.running(); // 100
    w.sample(); // 90: the lowest
    w.sample(); // 120
    w.sample(); // 140: grown 50, at the cap
    expect(stopped).to.deep.equal([]);
    w.sample(); // 141: over
    expect(stopped).to.deep.equal([51]);
    w.idle();
  });

  it('measures afresh after a stop, and not at all while idle', () => {
    const { w, stopped } = watch([0, 100, 100, 120, 151, 152], 50);
    w.running();
    w.sample(); // 100: over, stopped
    w.sample(); // 100: the new lowest
    w.sample(); // 120
    expect(stopped).to.deep.equal([100]);
    w.idle();
    w.running(); // 151 is the new starting point
    w.sample(); // 152
    expect(stopped).to.deep.equal([100]);
    w.idle();
  });
});
