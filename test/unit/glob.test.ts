import { expect } from 'chai';
import { globMatcher } from '../../src/search/dsl/glob.js';

describe('wildcard patterns', () => {
  it('match as Elasticsearch wildcards do: * any run, ? one character, the whole value', () => {
    const m = globMatcher('ki*y', { single: true });
    expect(['kimchy', 'kiy', 'kimchyy'].map(m)).to.deep.equal([true, true, true]);
    expect(['kimch', 'akimchy', 'ki'].map(m)).to.deep.equal([false, false, false]);
    expect(['kiy1', 'kimchy1', 'kiy'].map(globMatcher('ki*y?', { single: true }))).to.deep.equal([true, true, false]);
    expect(globMatcher('a?c')('a?c')).to.equal(true);
    expect(globMatcher('a?c')('abc')).to.equal(false);
    expect(globMatcher('*')('')).to.equal(true);
    expect(globMatcher('')('')).to.equal(true);
    expect(globMatcher('')('x')).to.equal(false);
    expect(globMatcher('A*Z', { caseInsensitive: true })('abcz')).to.equal(true);
    expect(globMatcher('?', { single: true })('😀')).to.equal(true);
    expect(globMatcher('.[(*')('.[(x')).to.equal(true);
  });

  it('answers a pattern of many stars against a long value at once (a regular expression would backtrack for ages)', () => {
    const pattern = `${'*a'.repeat(40)}*b`;
    expect(globMatcher(pattern)('a'.repeat(20_000))).to.equal(false);
    expect(globMatcher(pattern)(`${'a'.repeat(20_000)}b`)).to.equal(true);
  });
});
