import { expect } from 'chai';
import { phrasePrefix, words } from '../../src/kernel/analyzer.js';
import { cursorPosition, rankedPage, scoreCursor } from '../../src/catalogue/textRanking.js';
import type { RankedRow } from '../../src/catalogue/textRanking.js';
import { searchableText, VALUE_BARRIER, withoutNulls } from '../../src/search/searchDocument.js';

const row = (node: string, score: number, exact = false): RankedRow => ({ node, score, exact });

describe('full text: words, FTS5 expressions and ranking', () => {
  it('cuts text into lower-cased runs of letters and digits', () => {
    expect(words('Hello, WORLD! café-42 http://x.org/a_b')).to.deep.equal(['hello', 'world', 'café', '42', 'http', 'x', 'org', 'a', 'b']);
    expect(words(' - ')).to.deep.equal([]);
  });

  it('quotes every word of q into a phrase with a prefix last word, so no user character is FTS5 syntax', () => {
    expect(phrasePrefix('Alice "OR" NEAR(x*')).to.equal('"alice or near x" *');
    expect(phrasePrefix('***')).to.equal(undefined);
  });

  it('takes every payload value but the context, and drops nulls as compaction does', () => {
    expect(searchableText('urn:a', { '@context': { x: 'ignored' }, name: 'A', n: 3, deep: [{ b: true }, null] })).to.equal(
      ['urn:a', 'A', '3', 'true'].join(VALUE_BARRIER),
    );
    expect(withoutNulls({ a: null, b: [1, null, { c: null, d: 2 }] })).to.deep.equal({ b: [1, { d: 2 }] });
  });

  it('ranks exact matches first, then by score, then by node, and pages by offset or cursor alike', () => {
    const rows = [row('c', 1), row('a', 2), row('b', 2), row('z', 0.5, true), row('d', 3)];
    const order = (page: RankedRow[]) => page.map((r) => r.node);
    expect(order(rankedPage(rows, { offset: 0, limit: 10 }))).to.deep.equal(['z', 'd', 'a', 'b', 'c']);
    expect(order(rankedPage(rows, { offset: 2, limit: 2 }))).to.deep.equal(['a', 'b']);
    const after = cursorPosition(scoreCursor(row('a', 2)))!;
    expect(order(rankedPage(rows, { offset: 0, limit: 2, after }))).to.deep.equal(['b', 'c']);
    // Many rows, small page: the partial selection gives what a full sort gives.
    const many = Array.from({ length: 500 }, (_, i) => row(`n${String(i).padStart(3, '0')}`, (i * 37) % 101));
    const sorted = [...many].sort((x, y) => y.score - x.score || (x.node < y.node ? -1 : 1));
    expect(order(rankedPage(many, { offset: 5, limit: 10 }))).to.deep.equal(order(sorted.slice(5, 15)));
  });

  it('reads back only its own cursors', () => {
    expect(cursorPosition([{ type: 'uri', value: 'urn:x' }])).to.equal(undefined);
    expect(cursorPosition(scoreCursor(row('urn:x', 1.25, true)))).to.deep.equal({ exact: true, score: 1.25, node: 'urn:x' });
  });
});
