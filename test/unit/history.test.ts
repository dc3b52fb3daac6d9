import { expect } from 'chai';
import { jsonPatch } from '../../src/modules/history/jsonPatch.js';
import type { PatchOperation } from '../../src/modules/history/jsonPatch.js';
import { canonicalLines, lineChanges } from '../../src/modules/history/canonicalTriples.js';
import { blame } from '../../src/modules/history/blame.js';
import { actionsOf, deltaSubject, lifecycleHistory, recordHistory } from '../../src/modules/history/historyEntries.js';
import { rdfPatch, sparqlUpdate } from '../../src/modules/history/rdfChanges.js';
import { itemSelf } from '../../src/modules/history/itemSelf.js';
import { recordAt } from '../../src/modules/history/AsOfGraphs.js';
import { Rejection } from '../../src/kernel/Rejection.js';

/** RFC 6902 applied as the RFC says (add, remove, replace), independently of the diff. */
const apply = (doc: unknown, ops: PatchOperation[]): unknown => {
  let root = structuredClone(doc);
  for (const op of ops) {
    const tokens = op.path
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.length === 0) {
      if (op.op === 'remove') throw new Error('cannot remove the root');
      root = structuredClone(op.value);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const t of tokens.slice(0, -1)) parent = (parent as Record<string, unknown>)[t] as Record<string, unknown>;
    const last = tokens[tokens.length - 1]!;
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === 'remove') parent.splice(index, 1);
      else parent[index] = structuredClone(op.value);
    } else if (op.op === 'remove') delete parent[last];
    else parent[last] = structuredClone(op.value);
  }
  return root;
};

describe('history: JSON Patch of two sources', () => {
  const cases: [unknown, unknown][] = [
    [{ a: 1 }, { a: 1 }],
    [
      { a: 1, b: 2 },
      { a: 1, c: 3 },
    ],
    [{ 'a/b': 1, 'c~d': 2 }, { 'a/b': 2 }],
    [{ list: [1, 2, 3, 4] }, { list: [1, 9, 3, 4] }],
    [{ list: [1, 2, 3, 4] }, { list: [1, 4] }],
    [{ list: [1, 4] }, { list: [0, 1, 2, 3, 4, 5] }],
    [{ deep: { x: [{ y: 1 }, { y: 2 }] } }, { deep: { x: [{ y: 1, z: 0 }] } }],
    [{ a: [1] }, { a: { 0: 1 } }],
    [{ a: null }, { a: false }],
    [[1, 2], { a: 1 }],
  ];
  for (const [from, to] of cases)
    it(`turns ${JSON.stringify(from)} into ${JSON.stringify(to)}`, () => {
      const ops = jsonPatch(from, to);
      expect(apply(from, ops)).to.deep.equal(to);
    });

  it('writes small patches: changed leaves, escaped pointers, one operation per inserted element', () => {
    expect(jsonPatch({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 3 } })).to.deep.equal([{ op: 'replace', path: '/b/c', value: 3 }]);
    expect(jsonPatch({ 'a/b': 1, 'c~d': 2 }, { 'a/b': 1 })).to.deep.equal([{ op: 'remove', path: '/c~0d' }]);
    expect(jsonPatch({ l: [1, 2, 3] }, { l: [1, 9, 2, 3] })).to.deep.equal([{ op: 'add', path: '/l/1', value: 9 }]);
    expect(jsonPatch({ k: 1 }, { k: 1 })).to.deep.equal([]);
    // Key order is not a change.
    expect(jsonPatch({ a: 1, b: 2 }, { b: 2, a: 1 })).to.deep.equal([]);
  });
});

describe('history: triples with blank nodes labelled by structure', () => {
  const revision1 = ['<http://ex/a> <http://ex/address> _:b0 .', '_:b0 <http://ex/city> "Paris" .', '<http://ex/a> <http://ex/name> "A" .'].join('\n');
  // The same graph, its blank node labelled otherwise by the converter, and a blank node added.
  const revision2 = [
    '<http://ex/a> <http://ex/other> _:b0 .',
    '_:b0 <http://ex/city> "Lyon" .',
    '<http://ex/a> <http://ex/address> _:b1 .',
    '_:b1 <http://ex/city> "Paris" .',
    '<http://ex/a> <http://ex/name> "A" .',
  ].join('\n');

  it('gives a blank node the same label whatever it was called and whatever else changed', () => {
    const { added, removed } = lineChanges(canonicalLines(revision1), canonicalLines(revision2));
    expect(removed).to.deep.equal([]);
    expect(added).to.have.length(2);
    expect(added.join('\n')).to.contain('"Lyon"').and.to.contain('<http://ex/other>');
  });

  it('labels nested blank nodes from the inside out, and cycles by how far back they go', () => {
    const nested = (label: string, inner: string) =>
      [`<http://ex/s> <http://ex/p> _:${label} .`, `_:${label} <http://ex/q> _:${inner} .`, `_:${inner} <http://ex/v> "1" .`].join('\n');
    expect(canonicalLines(nested('x', 'y'))).to.deep.equal(canonicalLines(nested('m', 'n')));
    const changedInside = canonicalLines(nested('x', 'y').replace('"1"', '"2"'));
    expect(lineChanges(canonicalLines(nested('x', 'y')), changedInside).removed).to.have.length(3);
    const cycle = (a: string, b: string) => [`_:${a} <http://ex/next> _:${b} .`, `_:${b} <http://ex/next> _:${a} .`, `_:${a} <http://ex/v> "1" .`].join('\n');
    expect(canonicalLines(cycle('a', 'b'))).to.deep.equal(canonicalLines(cycle('q', 'p')));
    expect(canonicalLines(cycle('a', 'b')).every((l) => !/_:[abpq] /.test(l))).to.equal(true);
  });

  it('leaves lines without blank nodes as they are, sorted and distinct', () => {
    expect(canonicalLines('<http://b> <http://p> "x" .\n<http://a> <http://p> "x" .\n<http://a> <http://p> "x" .\n')).to.deep.equal([
      '<http://a> <http://p> "x" .',
      '<http://b> <http://p> "x" .',
    ]);
  });
});

describe('history: RDF Patch and SPARQL Update of a change', () => {
  const changes = {
    added: ['<http://a> <http://p> "new" .', '<http://a> <http://q> _:b1 .'],
    removed: ['<http://a> <http://p> "old" .', '_:b2 <http://v> "x" .'],
  };
  it('writes Jena RDF Patch: a transaction of D then A lines', () => {
    expect(rdfPatch(changes)).to.equal(
      'TX .\nD <http://a> <http://p> "old" .\nD _:b2 <http://v> "x" .\nA <http://a> <http://p> "new" .\nA <http://a> <http://q> _:b1 .\nTC .\n',
    );
  });
  it('writes SPARQL Update: DELETE DATA for ground triples, DELETE WHERE with variables for blank nodes, INSERT DATA', () => {
    const update = sparqlUpdate(changes);
    expect(update).to.contain('DELETE DATA {\n  <http://a> <http://p> "old" .\n}');
    expect(update).to.contain('DELETE WHERE {\n  ?b2 <http://v> "x" .\n}');
    expect(update).to.contain('INSERT DATA {\n  <http://a> <http://p> "new" .\n  <http://a> <http://q> _:b1 .\n}');
    expect(sparqlUpdate({ added: [], removed: [] })).to.equal('');
  });
});

describe('history: blame', () => {
  it('blames each triple on the first revision of the run that ends at the last one', () => {
    const r = (rev: number, lines: string[]) => ({ rev, instant: `2024-01-0${rev}T00:00:00Z`, subject: 'anonymous', lines });
    const blamed = blame([r(1, ['a', 'b']), r(2, ['a', 'c']), r(3, ['a', 'b', 'c'])]);
    expect(blamed.map((b) => [b.triple, b.rev])).to.deep.equal([
      ['a', 1],
      ['b', 3],
      ['c', 2],
    ]);
    expect(blame([])).to.deep.equal([]);
  });
});

describe('history: entries and actions', () => {
  it('names actions as Delta does, a create or update with a tag being Tagged too', () => {
    expect(actionsOf('ResourceCreated', 'v1')).to.deep.equal(['Created', 'Tagged']);
    expect(actionsOf('SchemaUpdated')).to.deep.equal(['Updated']);
    expect(actionsOf('ResourceSchemaUpdated')).to.deep.equal(['SchemaUpdated']);
    expect(actionsOf('FileTagAdded')).to.deep.equal(['Tagged']);
    expect(actionsOf('ResourceUndeprecated')).to.deep.equal(['Undeprecated']);
    expect(actionsOf('ResourceDeleted')).to.equal(undefined);
    expect(deltaSubject('realms/r1/users/alice')).to.deep.equal({ '@type': 'User', realm: 'r1', subject: 'alice' });
    expect(deltaSubject('anonymous')).to.deep.equal({ '@type': 'Anonymous' });
  });

  it('builds entries from lifecycle events (types carried forward) and from revision records', () => {
    const entries = lifecycleHistory('http://x', 'o/p', [
      { type: 'ResourceCreated', rev: 1, instant: 'i1', subject: 'anonymous', types: ['T'] },
      { type: 'ResourceTagAdded', rev: 2, instant: 'i2', subject: 'anonymous', tag: 'v1' },
    ]);
    expect(entries[1]).to.deep.equal({
      '@id': 'http://x',
      '@type': ['T'],
      action: ['Tagged'],
      organization: 'o',
      project: 'o/p',
      rev: 2,
      instant: 'i2',
      subject: { '@type': 'Anonymous' },
    });
    const v1 = { n: 1 };
    const rec = (rev: number, value: object, deprecated: boolean, event?: string) => ({
      rev,
      value,
      deprecated,
      updatedAt: `t${rev}`,
      updatedBy: 'anonymous',
      ...(event ? { event } : {}),
    });
    const records = [rec(1, v1, false), rec(2, { n: 2 }, false), rec(3, { n: 2 }, true), rec(4, { n: 2 }, true, 'FileTagDeleted')];
    expect(recordHistory('f', 'o/p', ['F'], records).map((e) => e.action)).to.deep.equal([['Created'], ['Updated'], ['Deprecated'], ['TagDeleted']]);
  });

  it('finds the record current at an instant, none before creation or while deprecated', () => {
    const history = [
      { rev: 1, value: 1, deprecated: false, updatedAt: '2024-01-01T00:00:00Z', updatedBy: 'anonymous' },
      { rev: 2, value: 1, deprecated: true, updatedAt: '2024-01-02T00:00:00Z', updatedBy: 'anonymous' },
    ];
    expect(recordAt({ history }, Date.parse('2023-12-31T00:00:00Z'))).to.equal(undefined);
    expect(recordAt({ history }, Date.parse('2024-01-01T12:00:00.5Z'))).to.deep.equal({ rev: 1 });
    expect(recordAt({ history }, Date.parse('2024-01-03T00:00:00Z'))).to.equal(undefined);
  });
});

describe('history: the items /v1/diff compares, by _self', () => {
  const base = 'http://h:8080';
  it('reads resources and schemas with their own rev or tag', () => {
    expect(itemSelf('left', `${base}/v1/resources/o/p/_/http%3A%2F%2Fx%2Fa?rev=2`, base)).to.deep.equal({
      kind: 'resources',
      project: 'o/p',
      schema: '_',
      id: 'http://x/a',
      selector: { rev: 2 },
    });
    expect(itemSelf('right', `${base}/v1/schemas/o/p/s1?tag=v1`, base)).to.deep.equal({
      kind: 'schemas',
      project: 'o/p',
      schema: '_',
      id: 's1',
      selector: { tag: 'v1' },
    });
  });
  it('refuses anything else with InvalidResourceSelf', () => {
    for (const bad of [
      undefined,
      'http://elsewhere/v1/resources/o/p/_/a',
      `${base}/v1/files/o/p/a`,
      `${base}/v1/resources/o/p/a`,
      `${base}/v1/resources/o/p/_/a?rev=0`,
      `${base}/v1/resources/o/p/_/a?rev=1&tag=x`,
      `${base}/v1/resources/o/p/_/%E0`,
    ]) {
      const thrown = (() => {
        try {
          itemSelf('left', bad, base);
        } catch (error) {
          return error;
        }
      })();
      expect(thrown, String(bad)).to.be.instanceOf(Rejection).and.have.property('type', 'InvalidResourceSelf');
    }
  });
});
