import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

const METADATA = 'https://bluebrain.github.io/nexus/contexts/metadata.json';
const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';

describe('resources: representations over HTTP', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let path: string;
  let id: string;
  const payload = {
    '@context': { '@vocab': 'http://schema.org/', knows: { '@type': '@id' } },
    '@type': 'Person',
    name: 'Ada "the first" Lovelace',
    knows: 'http://example.com/charles',
    address: { city: 'London' },
    nothing: null,
  };

  before(async () => {
    server = await startServer();
    api = client(server.url);
    await api.put('/v1/orgs/fmt', {});
    await api.put('/v1/projects/fmt/p', {});
    id = `${server.url}/v1/resources/fmt/p/_/ada`;
    path = '/v1/resources/fmt/p/_/ada';
    expect((await api.put(path, payload)).status).to.equal(201);
  });
  after(() => server.stop(true));

  const expectCompacted = (body: Record<string, unknown>) => {
    expect(body['@context']).to.deep.equal([payload['@context'], METADATA]);
    expect(body['@id']).to.equal(id);
    expect(body['@type']).to.equal('Person');
    expect(body).to.include({ name: payload.name, knows: 'http://example.com/charles', _rev: 1, _deprecated: false, _project: 'fmt/p' });
    expect(body['address']).to.deep.equal({ city: 'London' });
    expect(body).to.not.have.property('nothing');
    expect(body['_self']).to.equal(`${server.url}/v1/resources/fmt/p/_/${enc(id)}`);
  };

  it('answers compacted JSON-LD by default', async () => {
    const res = await api.get(path);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/(ld\+)?json/);
    expect(res.headers.get('vary')).to.match(/accept/i);
    expectCompacted(res.body);
    const star = await api.get(path, { accept: '*/*' });
    expect(star.status).to.equal(200);
    expectCompacted(star.body);
  });

  it('answers application/ld+json and application/json', async () => {
    for (const accept of ['application/ld+json', 'application/json', 'application/json, text/plain;q=0.5', 'text/html;q=0.9, application/ld+json']) {
      const res = await api.get(path, { accept });
      expect(res.status, accept).to.equal(200);
      expect(res.headers.get('vary')).to.match(/accept/i);
      expectCompacted(res.body);
    }
    expect((await api.get(path, { accept: 'application/ld+json' })).headers.get('content-type')).to.match(/^application\/ld\+json/);
    expect((await api.get(path, { accept: 'application/json' })).headers.get('content-type')).to.match(/^application\/json/);
  });

  it('answers N-Triples with the payload and the metadata', async () => {
    const res = await api.get(path, { accept: 'application/n-triples' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/n-triples/);
    expect(res.headers.get('vary')).to.match(/accept/i);
    const lines = res.text.trim().split('\n');
    for (const line of lines) expect(line, line).to.match(/^(<[^>]*>|_:\S+) <[^>]+> .+ \.$/);
    expect(res.text).to.contain(`<${id}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Person> .`);
    expect(res.text).to.contain(`<${id}> <http://schema.org/name> "Ada \\"the first\\" Lovelace" .`);
    expect(res.text).to.contain(`<${id}> <http://schema.org/knows> <http://example.com/charles> .`);
    expect(res.text).to.match(/<http:\/\/schema.org\/city> "London" \./);
    expect(res.text).to.contain(`<${id}> <${NXV}rev> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    expect(res.text).to.contain(`<${id}> <${NXV}deprecated> "false"^^<http://www.w3.org/2001/XMLSchema#boolean> .`);
    expect(res.text).to.not.contain('nothing');
  });

  it('answers N-Quads in the revision graph', async () => {
    const res = await api.get(path, { accept: 'application/n-quads' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/n-quads/);
    const lines = res.text.trim().split('\n');
    expect(lines.length).to.be.greaterThan(5);
    const graphs = new Set(lines.map((l) => /(<[^>]+>) \.$/.exec(l)?.[1]));
    expect(graphs.size).to.equal(1);
    expect([...graphs][0]).to.be.a('string');
    expect(res.text).to.contain(`<${id}> <http://schema.org/knows> <http://example.com/charles> `);
  });

  it('answers DOT', async () => {
    const res = await api.get(path, { accept: 'text/vnd.graphviz' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/vnd\.graphviz/);
    expect(res.text).to.match(/^digraph /);
    expect(res.text.trim().endsWith('}')).to.equal(true);
    expect(res.text).to.contain('"http://example.com/charles"');
    expect(res.text).to.contain('"http://schema.org/knows"');
  });

  it('is 406 for a representation it cannot produce', async () => {
    for (const accept of ['image/png', 'text/turtle', 'application/xml']) {
      const res = await api.get(path, { accept });
      expect(res.status, accept).to.equal(406);
      expect(res.body['@context']).to.equal('https://bluebrain.github.io/nexus/contexts/error.json');
      expect(res.body['@type']).to.be.a('string');
    }
  });

  it('renders older revisions and tags in every representation', async () => {
    // A resource of its own: the other tests read ada at its first revision.
    const revised = '/v1/resources/fmt/p/_/revised';
    expect((await api.put(revised, payload)).status).to.equal(201);
    await api.put(`${revised}?rev=1&tag=v2`, { ...payload, name: 'Ada' });
    for (const accept of ['application/ld+json', 'application/n-triples', 'application/n-quads', 'text/vnd.graphviz']) {
      const old = await api.get(`${revised}?rev=1`, { accept });
      expect(old.status, accept).to.equal(200);
      expect(old.text, accept).to.contain('the first');
      const tagged = await api.get(`${revised}?tag=v2`, { accept });
      expect(tagged.status, accept).to.equal(200);
      expect(tagged.text, accept).to.not.contain('the first');
    }
    const q1 = (await api.get(`${revised}?rev=1`, { accept: 'application/n-quads' })).text;
    const q2 = (await api.get(`${revised}?rev=2`, { accept: 'application/n-quads' })).text;
    const graph = (t: string) => /(<[^>]+>) \.$/.exec(t.trim().split('\n')[0]!)![1];
    expect(graph(q1)).to.not.equal(graph(q2));
  });

  it('renders a resource without @context, and ids with spaces, in every representation', async () => {
    await api.put('/v1/resources/fmt/p/_/bare', { name: 'bare', link: { '@id': 'http://example.com/x' } });
    await api.put(`/v1/resources/fmt/p/_/${enc('http://example.com/with space')}`, { '@context': { '@vocab': 'http://schema.org/' }, name: 'spaced' });
    for (const accept of ['application/ld+json', 'application/json', 'application/n-triples', 'application/n-quads', 'text/vnd.graphviz']) {
      const bare = await api.get('/v1/resources/fmt/p/_/bare', { accept });
      expect(bare.status, accept).to.equal(200);
      const spaced = await api.get(`/v1/resources/fmt/p/_/${enc('http://example.com/with space')}`, { accept });
      expect(spaced.status, accept).to.equal(200);
      expect(spaced.text).to.contain('spaced');
    }
    // an id with a space is spelled percent-encoded in RDF, for the payload and the metadata alike
    const spacedNt = await api.get(`/v1/resources/fmt/p/_/${enc('http://example.com/with space')}`, { accept: 'application/n-triples' });
    expect(spacedNt.text).to.contain('<http://example.com/with%20space> <http://schema.org/name> "spaced" .');
    expect(spacedNt.text).to.contain(`<http://example.com/with%20space> <${NXV}rev> `);
    const bare = await api.get('/v1/resources/fmt/p/_/bare');
    expect(bare.body['@context']).to.deep.equal([{ '@base': `${server.url}/v1/resources/fmt/p/_/`, '@vocab': `${server.url}/v1/vocabs/fmt/p/` }, METADATA]);
    expect(bare.body.name).to.equal('bare');
    const nt = await api.get('/v1/resources/fmt/p/_/bare', { accept: 'application/n-triples' });
    expect(nt.text).to.contain(`<${server.url}/v1/resources/fmt/p/_/bare> <${server.url}/v1/vocabs/fmt/p/name> "bare" .`);
  });
});
