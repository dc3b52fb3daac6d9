import { expect } from 'chai';
import { decodeState, encodeState, formatRecord, parseRecord } from '../../src/events/itemRecord.js';
import { stateTemplate } from '../../src/kernel/stateTemplate.js';

describe('the Redis log item record', () => {
  const event = JSON.stringify({
    key: 'resources/o/p/a',
    rev: 2,
    event: { id: 'https://example.org/a', subject: 'alice', types: ['https://schema.org/Dataset'] },
  });

  it('keeps a state as what it adds to its event, its position filled in when read', () => {
    const template = stateTemplate((seq) => ({
      id: 'https://example.org/a',
      types: ['https://schema.org/Dataset'],
      seqs: [3, seq],
      contentSeq: seq,
      note: 'ünï \u0001',
    }))!;
    const state = encodeState(template, event);
    expect(decodeState(state, Buffer.from(event), 41)).to.deep.equal({
      id: 'https://example.org/a',
      types: ['https://schema.org/Dataset'],
      seqs: [3, 41],
      contentSeq: 41,
      note: 'ünï \u0001',
    });
    expect(state.length).to.be.below(JSON.stringify(template).length);
  });

  it('reads back the revision, positions and state it was written with, any byte of the state kept', () => {
    const state = Buffer.from([0x7a, 0x20, 0x00, 0xff, 0x2c, 0x20]);
    expect(parseRecord(formatRecord({ rev: 3, seqs: [1, 5, 9], state }))).to.deep.equal({ rev: 3, seqs: [1, 5, 9], state });
    expect(parseRecord(formatRecord({ rev: 0, seqs: [7] }))).to.deep.equal({ rev: 0, seqs: [7] });
    expect(formatRecord({ rev: 2, seqs: [4, 8] }).toString()).to.equal('2 4,8');
  });

  it('refuses a state of an encoding it does not know', () => {
    expect(() => decodeState(Buffer.from('x123'), Buffer.from(event), 1)).to.throw('unknown state encoding');
  });
});
