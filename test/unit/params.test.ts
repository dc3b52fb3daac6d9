import { expect } from 'chai';
import { bool, integer, many, requiredRev, selector, single, tagName, tagProblem } from '../../src/http/params.js';
import { Rejection } from '../../src/kernel/Rejection.js';

type Query = Parameters<typeof single>[0];
const q = (value: Record<string, unknown>) => value as Query;
const rejects = (work: () => unknown, type = 'MalformedQueryParamRejection') => {
  let caught: unknown;
  try {
    work();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a rejection').to.be.instanceOf(Rejection);
  expect((caught as Rejection).type).to.equal(type);
};

describe('query parameters', () => {
  it('reads single and repeated values', () => {
    expect(single(q({}), 'a')).to.equal(undefined);
    expect(single(q({ a: 'x' }), 'a')).to.equal('x');
    rejects(() => single(q({ a: ['x', 'y'] }), 'a'));
    rejects(() => single(q({ a: { nested: 'x' } }), 'a'));
    expect(many(q({}), 'type')).to.deep.equal([]);
    expect(many(q({ type: 'a' }), 'type')).to.deep.equal(['a']);
    expect(many(q({ type: ['a', 'b'] }), 'type')).to.deep.equal(['a', 'b']);
    rejects(() => many(q({ type: [{ x: 1 }] }), 'type'));
  });

  it('reads bounded integers', () => {
    expect(integer(q({}), 'from', 0)).to.equal(undefined);
    expect(integer(q({ from: '0' }), 'from', 0, 10_000)).to.equal(0);
    expect(integer(q({ from: '10000' }), 'from', 0, 10_000)).to.equal(10_000);
    for (const bad of ['10001', '-1', 'abc', '1.5', '', ' 1', '1e3', '0x10']) rejects(() => integer(q({ from: bad }), 'from', 0, 10_000));
    rejects(() => integer(q({ size: '0' }), 'size', 1, 1000));
    rejects(() => integer(q({ size: '1001' }), 'size', 1, 1000));
    expect(integer(q({ size: '1000' }), 'size', 1, 1000)).to.equal(1000);
  });

  it('reads booleans strictly', () => {
    expect(bool(q({ a: 'true' }), 'a')).to.equal(true);
    expect(bool(q({ a: 'false' }), 'a')).to.equal(false);
    expect(bool(q({}), 'a')).to.equal(undefined);
    for (const bad of ['yes', '1', 'TRUE', '']) rejects(() => bool(q({ a: bad }), 'a'));
  });

  it('requires rev where writes need it', () => {
    expect(requiredRev(q({ rev: '3' }))).to.equal(3);
    rejects(() => requiredRev(q({})));
    rejects(() => requiredRev(q({ rev: '0' })));
    rejects(() => requiredRev(q({ rev: 'x' })));
  });

  it('selects a revision or a tag, never both', () => {
    expect(selector(q({}))).to.deep.equal({});
    expect(selector(q({ rev: '2' }))).to.deep.equal({ rev: 2 });
    expect(selector(q({ tag: 'v1' }))).to.deep.equal({ tag: 'v1' });
    rejects(() => selector(q({ rev: '2', tag: 'v1' })));
    rejects(() => selector(q({ rev: 'two' })));
  });

  it('validates tags', () => {
    expect(tagName(q({ tag: 'v1.0' }))).to.equal('v1.0');
    expect(tagName(q({}))).to.equal(undefined);
    rejects(() => tagName(q({ tag: '' })));
    rejects(() => tagName(q({ tag: 'x'.repeat(65) })));
    expect(tagProblem('with space')).to.equal(undefined);
    // A refusal says which rule the tag breaks.
    expect(tagProblem('')).to.equal('a tag must not be empty');
    expect(tagProblem('x'.repeat(65))).to.equal('a tag has at most 64 characters, this one has 65');
    expect(tagProblem('a\r\nb')).to.equal('a tag must not hold control characters (such as CR or LF), this one holds U+000D at position 1');
    expect(() => tagName(q({ tag: 'v\n1' }))).to.throw(/control characters .*U\+000A at position 1/);
  });
});
