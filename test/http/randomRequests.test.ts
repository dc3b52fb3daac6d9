import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client } from '../support/client.js';

/** Deterministic pseudo-random choices, so a failure reproduces. */
const chooser = (seed: number) => {
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { rnd, pick: <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]! };
};

/** Payloads that crashed the projection or the process once: bad language tags, named graphs, lone surrogates, deep nesting, odd ids. */
const HOSTILE = [
  '{"http://x/n": {"@value": "v", "@language": "en-"}}',
  '{"http://x/n": {"@value": "v", "@language": "-"}}',
  '{"@id": "http://e/g", "@graph": [{"@id": "http://e/h", "http://x/q": 1}]}',
  '{"@context": {"g": {"@id": "http://x/g", "@container": "@graph"}}, "g": {"@id": "http://e/i", "http://x/q": {"@graph": {"http://x/r": 2}}}}',
  '{"@id": "http://e/\\ud800"}',
  '{"@id": "http://e/a>b"}',
  '{"@id": "http://e/a\\"b"}',
  '{"@id": "http://e/a\\nb"}',
  '{"@id": "http://e/a\\u0000b"}',
  '{"@id": "http://x/\\udfff\\ud800", "http://x/n": "\\ud800"}',
  `${'{"http://x/a":'.repeat(1_500)}1${'}'.repeat(1_500)}`,
  `${'{"http://x/a":'.repeat(99)}1${'}'.repeat(99)}`,
  `{"http://x/a": [${Array.from({ length: 2_000 }, (_, i) => i).join(',')}]}`,
];
const SEGMENTS = [
  'o',
  'p',
  '_',
  'r1',
  'r2',
  'ex:a',
  'tags',
  'source',
  'incoming',
  'outgoing',
  'refresh',
  'undeprecate',
  'update-schema',
  'validate',
  'remote-contexts',
  '%2F',
  '%',
  '%zz',
  '..',
  'schema',
  'resource',
  'nxv:x',
  'http%3A%2F%2Fex.org%2Fa',
  'a+b',
  '%20',
  'x'.repeat(300),
  '%E2%82%AC',
  'urn:x:y',
];
const QUERIES = [
  'rev=1',
  'rev=0',
  'rev=abc',
  'rev=99999999999999999999',
  'tag=v1',
  'tag=',
  'from=-1',
  'size=0',
  'size=1001',
  'after=%5B%7B%7D%5D',
  'after=x',
  'sort=-name',
  'sort=_x',
  'sort=',
  'type=Person',
  'typeOperator=xor',
  'createdAt=x..y',
  'deprecated=maybe',
  'locate=http%3A%2F%2Fx',
  'aggregations=true',
  'prune=true',
  'annotate=true',
  'indexing=now',
  'q=x',
  'rev=1&tag=a',
  'rev=1&rev=2',
  'includeExternalLinks=no',
];
const BODIES = [
  undefined,
  ...HOSTILE,
  '{',
  '[]',
  '"x"',
  'null',
  '{}',
  '{"@context": 5}',
  '{"@context": "http://unknown/ctx"}',
  '{"_x": 1}',
  '{"@type": "https://bluebrain.github.io/nexus/vocabulary/Schema"}',
  '{"tag": "v", "rev": 1}',
  '{"tag": 1}',
  '{"@id": "r9"}',
  '{"@id": 5}',
  '{"@graph": [{"@id": "a"}, {"@id": "b"}]}',
  '{"@context": {"@base": 5}}',
  '{"apiMappings": 5}',
  '{"shapes": 5}',
  '{"@context": {"a": {"@id": "@type"}}, "a": "x"}',
];
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH'];
const TYPES = ['application/json', 'application/ld+json', 'text/plain', ''];
const ACCEPTS = ['*/*', 'application/n-triples', 'text/vnd.graphviz', 'image/png', ''];

/** Every item of a kind in the project, with its revision and deprecation. */
const items = async (api: ReturnType<typeof client>, kind: string): Promise<string[]> => {
  const all: string[] = [];
  for (const deprecated of [false, true]) {
    const res = await api.get(`/v1/${kind}/o/p?size=1000&deprecated=${deprecated}`);
    for (const r of res.body._results as { '@id': string; _rev: number }[]) all.push(`${r['@id']} ${r._rev} ${deprecated}`);
  }
  return all.sort();
};

describe('random requests', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  before(async () => {
    server = await startServer();
    api = client(server.url);
  });
  after(() => server?.stop(true));

  it('never answer with a server error, and the data directory boots again with every acknowledged write', async function () {
    this.timeout(90_000);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', { apiMappings: [{ prefix: 'ex', namespace: 'http://ex.org/' }] });
    for (let i = 0; i < 3; i++) await api.put(`/v1/resources/o/p/_/r${i}`, { '@context': { '@vocab': 'http://schema.org/' }, name: `n${i}` });
    const { rnd, pick } = chooser(7);
    const failures: string[] = [];
    for (let n = 0; n < 1500; n++) {
      const kind = pick(['resources', 'schemas', 'orgs', 'projects', 'resources']);
      const prefix = rnd() < 0.7 ? `/o/p/${pick(['_', 'schema', 'ex:s'])}/` : '/';
      const path = `/v1/${kind}${prefix}${Array.from({ length: Math.floor(rnd() * 3) }, () => pick(SEGMENTS)).join('/')}`;
      const query = rnd() < 0.6 ? `?${pick(QUERIES)}` : '';
      const method = pick(METHODS);
      const body = method === 'GET' || method === 'HEAD' ? undefined : pick(BODIES);
      const headers: Record<string, string> = {};
      const type = pick(TYPES);
      if (type && body !== undefined) headers['content-type'] = type;
      const accept = pick(ACCEPTS);
      if (accept) headers['accept'] = accept;
      const res = await fetch(`${server.url}${path}${query}`, { method, headers, ...(body === undefined ? {} : { body }) });
      await res.arrayBuffer();
      if (res.status >= 500) failures.push(`${res.status} ${method} ${path}${query} ${body ?? ''}`);
    }
    expect(failures).to.deep.equal([]);
    const before = { resources: await items(api, 'resources'), schemas: await items(api, 'schemas') };
    await server.stop();
    server = await startServer({}, server.dataDir);
    api = client(server.url);
    expect({ resources: await items(api, 'resources'), schemas: await items(api, 'schemas') }).to.deep.equal(before);
    expect((await api.get('/v1/version')).body.projection.quarantinedEvents).to.equal(0);
  });
});
