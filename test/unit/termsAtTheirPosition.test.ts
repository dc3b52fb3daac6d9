import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TermDictionary } from '../../src/catalogue/TermDictionary.js';
import { TermsFile } from '../../src/catalogue/TermsFile.js';

const schemaName = { 'http://schema.org/name': [] };

/**
 * The dictionary behind `sort=<field name>` was snapshotted with the states, at their position, as
 * a live object written after the states' pieces: a change learned while the snapshot was written
 * was in it, and counted again by the replay after a restart (before this fix, the counts read
 * back as 3 for the two changes below).
 */
describe('the term dictionary behind sort=<field name> across restarts', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'terms-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('persists a copy taken at its own position: what is learned after is not in it, and the replay counts it once', () => {
    const terms = new TermDictionary();
    terms.learn(1, 'o/p', { name: 'a' }, schemaName);
    const text = terms.serialize();
    terms.learn(2, 'o/p', { name: 'b' }, schemaName);
    const file = new TermsFile(join(dir, 'terms.json'));
    file.save(text);
    const restored = new TermDictionary();
    restored.replace(file.load()!);
    expect(restored.position).to.equal(1);
    // The replay from an earlier position (the states' snapshot at 0) hands change 1 again, then change 2.
    restored.learn(1, 'o/p', { name: 'a' }, schemaName);
    restored.learn(2, 'o/p', { name: 'b' }, schemaName);
    expect(JSON.parse(restored.serialize())).to.deep.equal({ position: 2, terms: { 'o/p': { name: { 'http://schema.org/name': 2 } } } });
  });

  it('counts a change applied again (a retried step) once', () => {
    const terms = new TermDictionary();
    terms.learn(3, 'o/p', { name: 'a' }, schemaName);
    terms.learn(3, 'o/p', { name: 'a' }, schemaName);
    terms.pass(4);
    terms.learn(4, 'o/p', { name: 'a' }, schemaName);
    expect(JSON.parse(terms.serialize())).to.deep.equal({ position: 4, terms: { 'o/p': { name: { 'http://schema.org/name': 1 } } } });
  });

  it('reads a missing or damaged file as nothing persisted', () => {
    const file = new TermsFile(join(dir, 'terms.json'));
    expect(file.load()).to.equal(undefined);
    file.save('{"position":"x"}');
    expect(file.load()).to.equal(undefined);
  });
});
