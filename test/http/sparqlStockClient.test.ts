import { expect } from 'chai';
import { SparqlEndpointFetcher } from 'fetch-sparql-endpoint';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

/** The stream's items, collected. */
const all = <T>(stream: NodeJS.ReadableStream): Promise<T[]> =>
  new Promise((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (item: T) => items.push(item));
    stream.on('error', reject);
    stream.on('end', () => resolve(items));
  });

describe('SPARQL endpoint with a stock client (fetch-sparql-endpoint)', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  before(async () => {
    await api.put('/v1/orgs/stock', {});
    await api.put('/v1/projects/stock/p', {});
    await api.put(`/v1/resources/stock/p/_/${enc('http://ex.org/ada')}`, { '@context': { '@vocab': 'http://schema.org/' }, name: 'Ada', born: 1815 });
  });

  for (const method of ['POST', 'GET'] as const) {
    it(`runs SELECT, CONSTRUCT and ASK (${method})`, async () => {
      const fetcher = new SparqlEndpointFetcher({ method });
      const url = `${server.url}/v1/views/stock/p/graph/sparql`;
      const rows = await all<Record<string, { termType: string; value: string; datatype?: { value: string } }>>(
        await fetcher.fetchBindings(url, 'SELECT ?name ?born WHERE { ?s <http://schema.org/name> ?name ; <http://schema.org/born> ?born }'),
      );
      expect(rows).to.have.length(1);
      expect(rows[0]!['name']!.value).to.equal('Ada');
      expect(rows[0]!['born']!.datatype!.value).to.equal('http://www.w3.org/2001/XMLSchema#integer');
      const triples = await all<{ subject: { value: string }; object: { value: string } }>(
        await fetcher.fetchTriples(url, 'CONSTRUCT { ?s <urn:label> ?name } WHERE { ?s <http://schema.org/name> ?name }'),
      );
      expect(triples.map((t) => [t.subject.value, t.object.value])).to.deep.equal([['http://ex.org/ada', 'Ada']]);
      expect(await fetcher.fetchAsk(url, 'ASK { ?s <http://schema.org/name> "Ada" }')).to.equal(true);
      expect(await fetcher.fetchAsk(url, 'ASK { ?s <http://schema.org/name> "Grace" }')).to.equal(false);
    });
  }
});
