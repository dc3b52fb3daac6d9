import { expect } from 'chai';
import { FairQueue } from '../../src/store/FairQueue.js';

describe('FairQueue: lanes per caller, served in turn', () => {
  it('takes one item per lane in turn, each lane in order, skipping lanes that may not take', () => {
    const q = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) q.push('a', item);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('b', 'b2');
    const taken: string[] = [];
    for (let item = q.take(() => true); item; item = q.take(() => true)) taken.push(item);
    expect(taken).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    q.push('a', 'a4');
    q.push('b', 'b3');
    expect(q.take((key) => key !== 'a')).to.equal('b3');
    expect(q.size).to.equal(1);
    expect(q.drain()).to.deep.equal(['a4']);
    expect(q.size).to.equal(0);
  });
});
