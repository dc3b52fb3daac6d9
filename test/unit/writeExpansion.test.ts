import { expect } from 'chai';
import { JsonLdProcessor } from '../../src/jsonld/JsonLdProcessor.js';
import { loadBundledContexts } from '../../src/jsonld/bundledContexts.js';
import type { JsonObject } from '../../src/kernel/json.js';

const BASE = 'http://localhost/v1/resources/o/p/_/';
const VOCAB = 'http://localhost/v1/vocabs/o/p/';
const options = (pathId: string) => ({
  base: BASE,
  vocab: VOCAB,
  pathId,
  generateId: () => `${BASE}generated`,
  contexts: async () => undefined,
  withTriples: true,
});

describe('a write expansion: triples and compacted form in the expansion round trip', () => {
  const jsonld = new JsonLdProcessor(loadBundledContexts());
  const payloads: [string, JsonObject][] = [
    ['compact terms and links', { '@context': { '@vocab': 'http://schema.org/', knows: { '@type': '@id' } }, '@type': 'Person', name: 'A', knows: 'b' }],
    ['a one-element array and a value object', { '@context': { '@vocab': 'http://schema.org/' }, name: ['A'], age: { '@value': 3 } }],
    ['no context (the project base and vocab)', { name: 'plain', 'http://schema.org/x': 1 }],
    ['a payload repeating the path id', { '@context': { '@vocab': 'http://schema.org/' }, '@id': `${BASE}r1`, name: 'A' }],
  ];
  for (const [name, payload] of payloads)
    it(`keeps what a fetch and the revision graph compute: ${name}`, async () => {
      const expansion = await jsonld.expand(payload, options(`${BASE}r1`));
      const kept = jsonld.takeCompacted(expansion.expanded);
      const context = jsonld.contextOf(payload, BASE, VOCAB);
      const fetched = await jsonld.compact(structuredClone(expansion.expanded), context, expansion.remoteContexts, async () => undefined, BASE);
      expect(kept).to.deep.equal(fetched);
      expect(jsonld.takeCompacted(expansion.expanded), 'taken once').to.equal(undefined);
      const triples = await jsonld.toNQuads(expansion.expanded);
      expect(triples).to.equal(await new JsonLdProcessor(loadBundledContexts()).toNQuads(structuredClone(expansion.expanded)));
      expect(triples).to.contain(`<${BASE}r1>`);
    });

  it('refuses a payload id contradicting the path, as before', async () => {
    const error = await jsonld.expand({ '@id': `${BASE}other`, 'http://schema.org/name': 'A' }, options(`${BASE}r1`)).catch((e: unknown) => e);
    expect((error as { type?: string }).type).to.equal('UnexpectedId');
  });

  it('forgets both when the kind changes the root after expansion', async () => {
    const expansion = await jsonld.expand({ 'http://schema.org/name': 'A' }, options(`${BASE}r2`));
    jsonld.changed(expansion.expanded);
    expect(jsonld.takeCompacted(expansion.expanded)).to.equal(undefined);
  });
});
