import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextIndex } from '../../src/search/TextIndex.js';
import { phrasePrefix } from '../../src/kernel/analyzer.js';

const item = (node: string, body: string, project = 'o/p') => ({
  node,
  kind: 'resources',
  project,
  id: node,
  contentSeq: 1,
  rev: 1,
  deprecated: false,
  doc: { '@id': node, body },
  body,
});

describe('TextIndex (SQLite FTS5)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'text-index-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds, replaces and removes items, reads its uncommitted writes, and keeps them across a reopen', () => {
    const path = join(dir, 'text.sqlite');
    const index = TextIndex.open(path);
    expect(index.created).to.equal(true);
    index.put(item('urn:a', 'red fox jumps'));
    index.put(item('urn:b', 'red red red hen'));
    index.put(item('urn:c', 'blue whale', 'o/q'));
    const red = index.match(phrasePrefix('red')!, 'resources');
    expect(red.map((m) => m.node)).to.have.members(['urn:a', 'urn:b']);
    expect(red.find((m) => m.node === 'urn:b')!.score).to.be.above(red.find((m) => m.node === 'urn:a')!.score);
    expect(index.match(phrasePrefix('red f')!, 'resources').map((m) => m.node)).to.deep.equal(['urn:a']);
    expect(index.match(phrasePrefix('red')!, 'schemas')).to.deep.equal([]);
    index.put({ ...item('urn:a', ''), contentSeq: 5, rev: 2, body: 'green fox' });
    index.put({ ...item('urn:b', ''), rev: 3, deprecated: true, doc: { changed: true }, body: undefined } as never);
    expect(index.match(phrasePrefix('red')!, 'resources').map((m) => m.node)).to.deep.equal(['urn:b']);
    expect(index.document('resources', 'o/p', 'urn:b')).to.deep.equal({ changed: true });
    index.remove('resources', 'o/q', 'urn:c');
    index.advance('o/p', 42);
    expect([...index.documents('resources', 'o/p').keys()].sort()).to.deep.equal(['urn:a', 'urn:b']);
    index.close();
    const reopened = TextIndex.open(path);
    expect(reopened.created).to.equal(false);
    expect(reopened.positionOf('o/p')).to.equal(42);
    expect(reopened.positionOf('o/q')).to.equal(undefined);
    expect(Object.fromEntries(reopened.versions())).to.deep.equal({ 'urn:a': { contentSeq: 5, rev: 2 }, 'urn:b': { contentSeq: 1, rev: 3 } });
    expect(reopened.match(phrasePrefix('green')!, 'resources').map((m) => m.node)).to.deep.equal(['urn:a']);
    reopened.close();
  });

  it('answers a repeated query from the matches it kept, and ranks again after any write of words or a removal', () => {
    const index = TextIndex.open(join(dir, 'text.sqlite'));
    index.put(item('urn:a', 'red fox'));
    index.put(item('urn:b', 'red hen'));
    const first = index.match(phrasePrefix('red')!, 'resources');
    expect(index.match(phrasePrefix('red')!, 'resources')).to.equal(first);
    // A write elsewhere changes BM25's statistics, so every score of the kept answer.
    index.put(item('urn:c', 'blue whale swims far'));
    const second = index.match(phrasePrefix('red')!, 'resources');
    expect(second).to.not.equal(first);
    expect(second.find((m) => m.node === 'urn:a')!.score).to.not.equal(first.find((m) => m.node === 'urn:a')!.score);
    // A change of metadata only keeps the words, and the kept answer.
    index.put({ ...item('urn:a', ''), rev: 2, body: undefined } as never);
    expect(index.match(phrasePrefix('red')!, 'resources')).to.equal(second);
    index.remove('resources', 'o/p', 'urn:b');
    expect(index.match(phrasePrefix('red')!, 'resources').map((m) => m.node)).to.deep.equal(['urn:a']);
    index.close();
  });
});
