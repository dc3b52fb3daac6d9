import { expect } from 'chai';
import { serve } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import type { client } from '../support/client.js';

/** Deterministic pseudo-random choices, so a failure reproduces. */
const chooser = (seed: number) => {
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  return { rnd, pick: <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]! };
};

const SEGMENTS = ['o', 'p', '_', 'r1', 'r2', 'ex:a', 'tags', 'source', 'incoming', 'outgoing', 'refresh', 'undeprecate', 'update-schema', 'validate', 'remote-contexts', '%2F', '%', '%zz', '..', 'schema', 'resource', 'nxv:x', 'http%3A%2F%2Fex.org%2Fa', 'a+b', '%20', 'x'.repeat(300), '%E2%82%AC', 'urn:x:y'];
const QUERIES = ['rev=1', 'rev=0', 'rev=abc', 'rev=99999999999999999999', 'tag=v1', 'tag=', 'from=-1', 'size=0', 'size=1001', 'after=%5B%7B%7D%5D', 'after=x', 'sort=-name', 'sort=_x', 'sort=', 'type=Person', 'typeOperator=xor', 'createdAt=x..y', 'deprecated=maybe', 'locate=http%3A%2F%2Fx', 'aggregations=true', 'prune=true', 'annotate=true', 'indexing=now', 'q=x', 'rev=1&tag=a', 'rev=1&rev=2', 'includeExternalLinks=no'];
const BODIES = [undefined, '{', '[]', '"x"', 'null', '{}', '{"@context": 5}', '{"@context": "http://unknown/ctx"}', '{"_x": 1}', '{"@type": "https://bluebrain.github.io/nexus/vocabulary/Schema"}', '{"tag": "v", "rev": 1}', '{"tag": 1}', '{"@id": "r9"}', '{"@id": 5}', '{"@graph": [{"@id": "a"}, {"@id": "b"}]}', '{"@context": {"@base": 5}}', '{"apiMappings": 5}', '{"shapes": 5}', '{"@context": {"a": {"@id": "@type"}}, "a": "x"}'];
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH'];
const TYPES = ['application/json', 'application/ld+json', 'text/plain', ''];
const ACCEPTS = ['*/*', 'application/n-triples', 'text/vnd.graphviz', 'image/png', ''];

describe('random requests', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  serve((s, a) => ((server = s), (api = a)));

  it('never answer with a server error', async function () {
    this.timeout(60_000);
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
  });
});
