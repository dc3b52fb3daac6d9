import { expect } from 'chai';
import { ndjsonLines } from '../../src/modules/bulk/ndjsonLines.js';
import type { BodyLine } from '../../src/modules/bulk/ndjsonLines.js';

const lines = async (chunks: string[], max: number, complete = true): Promise<BodyLine[]> => {
  async function* source() {
    for (const c of chunks) yield Buffer.from(c);
  }
  const out: BodyLine[] = [];
  for await (const line of ndjsonLines(source(), max, () => complete)) out.push(line);
  return out;
};

describe('ndjsonLines', () => {
  it('splits lines across chunks, numbers them from 1, skips blank ones and keeps a last line without newline', async () => {
    expect(await lines(['{"a":', '1}\n\n  \n{"b"', ':2}\r\n{"c":3}'], 100)).to.deep.equal([
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}\r' },
      { line: 5, text: '{"c":3}' },
    ]);
  });

  it('reports a line over the limit without holding it, and goes on with the next', async () => {
    expect(await lines(['{"a":1}\n', 'x'.repeat(30), 'y'.repeat(30), '\n{"b":2}\n'], 40)).to.deep.equal([
      { line: 1, text: '{"a":1}' },
      { line: 2, tooLarge: true },
      { line: 3, text: '{"b":2}' },
    ]);
    expect(await lines(['x'.repeat(50)], 40)).to.deep.equal([{ line: 1, tooLarge: true }]);
  });

  it('drops the unfinished last line of a body that did not arrive whole', async () => {
    expect(await lines(['{"a":1}\n{"b":'], 100, false)).to.deep.equal([{ line: 1, text: '{"a":1}' }]);
  });
});
