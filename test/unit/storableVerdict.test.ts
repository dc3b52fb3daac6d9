import { expect } from 'chai';
import { JsonLdProcessor } from '../../src/jsonld/JsonLdProcessor.js';
import { loadBundledContexts } from '../../src/jsonld/bundledContexts.js';
import { storableRevision } from '../../src/projection/storableRevision.js';
import { refusedLine } from '../../src/store/refusedLine.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const BASE = 'http://localhost/v1/resources/o/p/_/';
const options = {
  base: BASE,
  vocab: 'http://localhost/v1/vocabs/o/p/',
  pathId: `${BASE}r1`,
  generateId: () => `${BASE}generated`,
  contexts: async () => undefined,
  withTriples: true,
};
const badLanguage = { 'http://x/n': { '@value': 'v', '@language': 'en-' } };
const good = { 'http://x/n': { '@value': 'v', '@language': 'en' } };

/** A store that counts the lines it was asked to judge, judging them as the embedded store does. */
const countingStore = () => {
  const asked: string[] = [];
  return { asked, refusedLine: (ntriples: string) => (asked.push(ntriples), refusedLine(ntriples)) };
};

describe("a write's storability, judged in its expansion's round trip", () => {
  it("takes the worker's verdict when the store judges with refusedLine: no parse of the triples on the main thread", async () => {
    const jsonld = new JsonLdProcessor(loadBundledContexts(), undefined, true);
    const store = countingStore();
    const check = storableRevision(jsonld, store);
    const accepted = await jsonld.expand(good, options);
    expect(jsonld.refusal(accepted.expanded)).to.equal(false);
    await check(accepted.expanded);
    const refused = await jsonld.expand(badLanguage, options);
    expect(jsonld.refusal(refused.expanded)).to.include('"v"@en-');
    const error = await check(refused.expanded).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Rejection);
    expect((error as Rejection).type).to.equal('InvalidJsonLdFormat');
    expect((error as Error).message)
      .to.include('"v"@en-')
      .and.include('language tag');
    expect(store.asked).to.deep.equal([]);
  });

  it('asks the store itself otherwise (an external store), and after a change of the expanded document', async () => {
    const jsonld = new JsonLdProcessor(loadBundledContexts());
    const store = countingStore();
    const check = storableRevision(jsonld, store);
    const refused = await jsonld.expand(badLanguage, options);
    expect(jsonld.refusal(refused.expanded)).to.equal(undefined);
    expect(((await check(refused.expanded).catch((e: unknown) => e)) as Rejection).type).to.equal('InvalidJsonLdFormat');
    expect(store.asked).to.have.length(1);

    const judging = new JsonLdProcessor(loadBundledContexts(), undefined, true);
    const changed = await judging.expand(good, options);
    judging.changed(changed.expanded);
    await storableRevision(judging, store)(changed.expanded);
    expect(store.asked).to.have.length(2);
  });
});
