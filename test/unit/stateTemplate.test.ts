import { expect } from 'chai';
import { fillTemplate, stateTemplate } from '../../src/kernel/stateTemplate.js';

describe('state templates (the state an event leads to, with a hole for its log position)', () => {
  it('cuts the state where the position stands, and only there', () => {
    const parts = stateTemplate((seq) => ({ contentSeq: seq, seqs: [4, seq], note: 'seq 9000000000000001 as text', n: 90 }))!;
    expect(parts).to.have.length(3);
    expect(JSON.parse(fillTemplate(parts, 17))).to.deep.equal({ contentSeq: 17, seqs: [4, 17], note: 'seq 9000000000000001 as text', n: 90 });
  });

  it('is one part when the state does not record the position, and absent when the item is gone', () => {
    expect(stateTemplate(() => ({ rev: 2 }))).to.deep.equal(['{"rev":2}']);
    expect(stateTemplate(() => undefined)).to.equal(undefined);
  });

  it('refuses a state computed from the position rather than holding it', () => {
    expect(() => stateTemplate((seq) => ({ next: seq + 1 }))).to.throw(/function of the position/);
    expect(() => stateTemplate((seq) => ({ half: String(seq).slice(0, 8) }))).to.not.throw();
  });
});
