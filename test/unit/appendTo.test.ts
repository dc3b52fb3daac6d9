import { expect } from 'chai';
import { appendTo } from '../../src/util/appendTo.js';

describe('appendTo', () => {
  it('starts a list for a new key and grows the same list in place after', () => {
    const map = new Map<string, number[]>();
    appendTo(map, 'a', 1);
    const first = map.get('a');
    appendTo(map, 'a', 2);
    appendTo(map, 'b', 3);
    expect([...map]).to.deep.equal([
      ['a', [1, 2]],
      ['b', [3]],
    ]);
    expect(map.get('a')).to.equal(first);
  });
});
