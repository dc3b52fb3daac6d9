import { expect } from 'chai';
import type { TextMatch, TextMatcher } from '../../src/catalogue/textRanking.js';
import type { JsonObject } from '../../src/kernel/json.js';
import { words } from '../../src/search/analyzer.js';
import { EmbeddedTextMatcher } from '../../src/search/EmbeddedTextMatcher.js';
import { searchableText } from '../../src/search/searchDocument.js';
import { StoreTextMatcher } from '../../src/search/store/StoreTextMatcher.js';
import { textGraphOf, textTriples } from '../../src/search/store/textGraph.js';
import { TextIndex } from '../../src/search/TextIndex.js';
import { itemNode } from '../../src/store/graphNames.js';
import { SparqlHttpClient } from '../../src/store/SparqlHttpClient.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

interface Item {
  kind: string;
  project: string;
  id: string;
  payload: JsonObject;
}

interface Subject {
  name: string;
  /** A matcher over these items (and nothing else). */
  open(items: Item[]): Promise<TextMatcher>;
  close(): Promise<void>;
}

const bodyOf = (item: Item) => searchableText(item.id, item.payload);

const subjects: Subject[] = [
  (() => {
    let index: TextIndex | undefined;
    return {
      name: 'embedded (SQLite FTS5)',
      open: async (items: Item[]) => {
        index = TextIndex.open(':memory:');
        for (const [at, item] of items.entries())
          index.put({
            ...item,
            node: itemNode(item.kind, item.project, item.id),
            contentSeq: at + 1,
            rev: 1,
            deprecated: false,
            doc: item.payload,
            body: bodyOf(item),
          });
        return new EmbeddedTextMatcher(index);
      },
      close: async () => index?.close(),
    };
  })(),
  (() => {
    let used = false;
    return {
      name: 'external store (Virtuoso, word triples)',
      open: async (items: Item[]) => {
        const virtuoso = await useVirtuoso();
        used = true;
        await clearVirtuoso(virtuoso.server);
        const client = new SparqlHttpClient(virtuoso.server, { timeoutMillis: 20_000 });
        for (const item of items)
          await client.update(
            `INSERT DATA { GRAPH <${textGraphOf(item.kind, item.project)}> {\n${textTriples(itemNode(item.kind, item.project, item.id), bodyOf(item))}} }`,
          );
        return new StoreTextMatcher(client);
      },
      close: async () => {
        if (used) await releaseVirtuoso();
        used = false;
      },
    };
  })(),
];

const ITEMS: Item[] = [
  { kind: 'resources', project: 'o/a', id: 'urn:alice', payload: { name: 'Alice Liddell', address: { city: 'Oxford', street: 'Christ Church' } } },
  { kind: 'resources', project: 'o/a', id: 'urn:bob', payload: { name: 'Bob Oxford Oxford', knows: [{ name: 'Alice in Oxford' }] } },
  { kind: 'resources', project: 'o/a', id: 'urn:carol', payload: { name: 'Carol', note: 'lives in Cambridge', city: 'Zürich' } },
  { kind: 'resources', project: 'o/b', id: 'urn:dave', payload: { name: 'Dave', note: 'Oxford street' } },
  { kind: 'schemas', project: 'o/a', id: 'urn:schema', payload: { shapes: [{ name: 'Oxford shape' }] } },
  { kind: 'files', project: 'o/a', id: 'urn:file', payload: { _filename: 'report-2024.pdf' } },
];

/** Every implementation of listings' text matcher passes this suite. */
for (const subject of subjects)
  describe(`text matcher contract: ${subject.name}`, function () {
    this.timeout(60_000);
    let matcher: TextMatcher;
    before(async () => {
      matcher = await subject.open(ITEMS);
    });
    after(() => subject.close());

    const nodes = (found: readonly TextMatch[]) => found.map((m) => m.node).sort();
    const match = (q: string, kind = 'resources', projects = ['o/a', 'o/b']) => matcher.match(words(q), kind, projects);
    const node = (id: string, project = 'o/a', kind = 'resources') => itemNode(kind, project, id);

    it('finds the items holding a word in any value at any depth, the last word a prefix, by kind and in the projects asked', async () => {
      expect(nodes(await match('oxford'))).to.deep.equal([node('urn:alice'), node('urn:bob'), node('urn:dave', 'o/b')].sort());
      expect(nodes(await match('oxf', 'resources', ['o/a']))).to.deep.equal([node('urn:alice'), node('urn:bob')]);
      expect(nodes(await match('cambr'))).to.deep.equal([node('urn:carol')]);
      expect(nodes(await match('zür'))).to.deep.equal([node('urn:carol')]);
      expect(nodes(await match('oxford', 'schemas'))).to.deep.equal([node('urn:schema', 'o/a', 'schemas')]);
      expect(nodes(await match('report 2024 p', 'files'))).to.deep.equal([node('urn:file', 'o/a', 'files')]);
      // The `@id` is searched too.
      expect(nodes(await match('urn carol'))).to.deep.equal([node('urn:carol')]);
      expect(await match('oxford', 'storages')).to.deep.equal([]);
      expect(await match('oxford', 'resources', [])).to.deep.equal([]);
      expect(await matcher.match([], 'resources', ['o/a'])).to.deep.equal([]);
      expect(await match('nothing')).to.deep.equal([]);
    });

    it('takes the words as a phrase within one value', async () => {
      expect(nodes(await match('christ chur'))).to.deep.equal([node('urn:alice')]);
      expect(nodes(await match('alice in ox'))).to.deep.equal([node('urn:bob')]);
      // Both words present, in the other order or apart: no match.
      expect(await match('church christ')).to.deep.equal([]);
      expect(await match('alice oxford')).to.deep.equal([]);
      // Adjacent values do not make a phrase: Alice's city and street.
      expect(await match('oxford christ')).to.deep.equal([]);
    });

    it('ranks by relevance: positive scores, higher for more occurrences', async () => {
      const found = await match('oxford', 'resources', ['o/a']);
      const score = (id: string) => found.find((m) => m.node === node(id))!.score;
      expect(found.every((m) => m.score > 0)).to.equal(true);
      expect(score('urn:bob')).to.be.above(score('urn:alice'));
    });
  });
