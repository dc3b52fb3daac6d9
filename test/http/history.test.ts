import { expect } from 'chai';
import { Parser } from 'n3';
import type { Quad } from 'n3';
import { MINIMUM_PERMISSIONS } from '../../src/kernel/permissions.js';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { OidcIssuer } from '../support/oidcIssuer.js';
import { call as request, enc } from '../support/client.js';
import { upload } from '../support/files.js';
import { EX, schemaPayload } from '../support/schemas.js';

/** History (Delta's path and shape), diffs in four representations, blame and SPARQL time travel, with their ACLs. */
describe('history, diffs, blame and time travel', function () {
  this.timeout(60_000);
  let provider: OidcIssuer;
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const call = (method: string, path: string, who: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
    request(server.url, method, path, body, { ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}), ...headers });
  const get = (path: string, who = 'admin', headers: Record<string, string> = {}) => call('GET', path, who, undefined, headers);
  const R = `${EX}hist/r`;
  const OTHER = `${EX}hist/other`;
  const S = `${EX}hist/schema`;
  const resource = `/v1/resources/o/p/_/${enc(R)}`;
  const schema = `/v1/schemas/o/p/${enc(S)}`;
  const history = (project: string, id: string) => `/v1/history/resources/${project}/${enc(id)}`;
  const ctx = { '@vocab': EX };
  const instants: string[] = [];
  const sparql = (query: string, extra = '', who = 'admin') =>
    get(`/v1/views/o/p/graph/sparql?query=${enc(query)}${extra}`, who, { accept: 'application/sparql-results+json' });
  const names = async (extra: string) => {
    const res = await sparql(`SELECT ?n WHERE { <${R}> <${EX}name> ?n }`, extra);
    expect(res.status, res.text).to.equal(200);
    return (res.body.results.bindings as { n: { value: string } }[]).map((b) => b.n.value).sort();
  };

  before(async () => {
    provider = await OidcIssuer.start();
    server = await startServer();
    // Written by anonymous before the ACLs are locked: their history names the anonymous subject.
    for (const path of ['/v1/orgs/o', '/v1/projects/o/p', '/v1/projects/o/q']) expect((await call('PUT', path, undefined, {})).status).to.equal(201);
    const first = await call('PUT', resource, undefined, { '@context': ctx, name: 'A', address: { city: 'Paris' }, list: [1, 2] });
    expect(first.status, first.text).to.equal(201);
    await new Promise((r) => setTimeout(r, 20));
    expect((await call('PUT', `${resource}?rev=1`, undefined, { '@context': ctx, name: 'B', address: { city: 'Paris' }, list: [1, 3, 2] })).status).to.equal(
      200,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect((await call('POST', `${resource}/tags?rev=2`, undefined, { tag: 'v1', rev: 1 })).status).to.equal(201);
    expect((await call('PUT', `/v1/resources/o/q/_/${enc(OTHER)}`, undefined, { '@context': ctx, name: 'B', other: true })).status).to.equal(201);
    expect((await call('PUT', schema, undefined, schemaPayload(S, 'Person', { name: { datatype: 'xsd:string' } }))).status).to.equal(201);
    expect((await upload(`${server.url}/v1/files/o/p/f1`, 'PUT', 'hello', 'hello.txt', 'text/plain')).status).to.equal(201);
    expect((await call('POST', `/v1/files/o/p/f1/tags?rev=1`, undefined, { tag: 't', rev: 1 })).status).to.equal(201);
    expect((await call('DELETE', `/v1/files/o/p/f1/tags/t?rev=2`, undefined)).status).to.equal(200);

    expect((await call('PUT', '/v1/realms/r1', undefined, { name: 'r1', openIdConfig: provider.openIdConfig })).status).to.equal(201);
    for (const name of ['admin', 'alice']) tokens[name] = await provider.sign({ sub: name, groups: [] });
    const locked = await call('PUT', '/v1/acls?rev=0', undefined, {
      acl: [{ identity: { realm: 'r1', subject: 'admin' }, permissions: [...MINIMUM_PERMISSIONS] }],
    });
    expect(locked.status).to.equal(201);
    const grant = await call('PATCH', '/v1/acls/o/p?rev=0', 'admin', {
      '@type': 'Append',
      acl: [{ identity: { realm: 'r1', subject: 'alice' }, permissions: ['resources/read'] }],
    });
    expect(grant.status, grant.text).to.equal(200);
    const entries = (await get(history('o/p', R))).body._results as { instant: string }[];
    instants.push(...entries.map((e) => e.instant));
  });
  after(async () => {
    await server?.stop(true);
    await provider?.stop();
  });

  describe('GET /v1/history/resources/{org}/{project}/{id}', () => {
    it('lists every revision of a resource oldest first in Delta’s shape', async () => {
      const res = await get(history('o/p', R));
      expect(res.status, res.text).to.equal(200);
      expect(res.body._total).to.equal(3);
      expect(res.body._results.map((e: { action: string[] }) => e.action)).to.deep.equal([['Created'], ['Updated'], ['Tagged']]);
      expect(res.body._results[0]).to.deep.include({ '@id': R, '@type': [], organization: 'o', project: 'o/p', rev: 1, subject: { '@type': 'Anonymous' } });
      expect(Date.parse(res.body._results[0].instant)).to.be.a('number').and.not.NaN;
    });

    it('pages with from and size, _total staying the number of revisions', async () => {
      const res = await get(`${history('o/p', R)}?from=1&size=1`);
      expect([res.body._total, res.body._results.map((e: { rev: number }) => e.rev)]).to.deep.equal([3, [2]]);
      const bad = await get(`${history('o/p', R)}?size=0`);
      expect([bad.status, bad.body['@type']]).to.deep.equal([400, 'MalformedQueryParamRejection']);
    });

    it('covers schemas and files (a tag’s removal is TagDeleted), and a subject who signed in', async () => {
      const s = await get(history('o/p', S));
      expect(s.body._results.map((e: { action: string[] }) => e.action)).to.deep.equal([['Created']]);
      expect(s.body._results[0]['@type']).to.include('https://bluebrain.github.io/nexus/vocabulary/Schema');
      const f = await get(history('o/p', 'f1'));
      expect(f.status, f.text).to.equal(200);
      expect(f.body._results.map((e: { action: string[] }) => e.action)).to.deep.equal([['Created'], ['Tagged'], ['TagDeleted']]);
      expect(f.body._results[0]['@type']).to.deep.equal(['https://bluebrain.github.io/nexus/vocabulary/File']);
      expect((await call('PUT', `/v1/resources/o/q/_/${enc(OTHER)}?rev=1`, 'admin', { '@context': ctx, name: 'C' })).status).to.equal(200);
      const other = await get(history('o/q', OTHER));
      expect(other.body._results[1].subject).to.deep.equal({ '@type': 'User', realm: 'r1', subject: 'admin' });
    });

    it('answers 404 ResourceNotFound for an unknown id', async () => {
      const res = await get(history('o/p', `${EX}nothing`));
      expect([res.status, res.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
    });
  });

  describe('diffs of two revisions', () => {
    it('defaults to the latest revision against the one before (a tag changes nothing)', async () => {
      const res = await get(`${resource}/diff`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ '@id': R, from: { '@id': R, rev: 2 }, to: { '@id': R, rev: 3 }, source: [], added: [], removed: [] });
    });

    it('answers JSON: the sources’ JSON Patch and the triples added and removed, blank nodes compared by structure', async () => {
      for (const query of ['from=1&to=2', 'fromTag=v1&to=2']) {
        const res = await get(`${resource}/diff?${query}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.body['@context']).to.equal('https://bluebrain.github.io/nexus/contexts/metadata.json');
        expect(res.body.source).to.deep.equal([
          { op: 'replace', path: '/name', value: 'B' },
          { op: 'add', path: '/list/1', value: 3 },
        ]);
        expect(res.body.added).to.deep.equal([`<${R}> <${EX}list> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .`, `<${R}> <${EX}name> "B" .`]);
        expect(res.body.removed).to.deep.equal([`<${R}> <${EX}name> "A" .`]);
      }
      expect((await get(`${resource}/diff?fromTag=v1&to=2`)).body.from).to.deep.equal({ '@id': R, rev: 1, tag: 'v1' });
    });

    it('answers JSON Patch, RDF Patch and SPARQL Update by Accept', async () => {
      const patch = await get(`${resource}/diff?from=1&to=2`, 'admin', { accept: 'application/json-patch+json' });
      expect(patch.headers.get('content-type')).to.match(/^application\/json-patch\+json/);
      expect(patch.body).to.have.length(2);
      const rdf = await get(`${resource}/diff?from=1&to=2`, 'admin', { accept: 'application/rdf-patch' });
      expect(rdf.headers.get('content-type')).to.match(/^application\/rdf-patch/);
      expect(rdf.text).to.equal(
        `TX .\nD <${R}> <${EX}name> "A" .\nA <${R}> <${EX}list> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .\nA <${R}> <${EX}name> "B" .\nTC .\n`,
      );
      const update = await get(`${resource}/diff?from=1&to=2`, 'admin', { accept: 'application/sparql-update' });
      expect(update.headers.get('content-type')).to.match(/^application\/sparql-update/);
      expect(update.text).to.match(/^DELETE DATA \{\n {2}<[^\n]+"A" \.\n\} ;\nINSERT DATA \{/);
      const refused = await get(`${resource}/diff`, 'admin', { accept: 'image/png' });
      expect([refused.status, refused.body['@type']]).to.deep.equal([406, 'UnacceptedResponseContentTypeRejection']);
    });

    it('compares schemas the same way', async () => {
      const res = await get(`${schema}/diff`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ from: { '@id': S, rev: 1 }, to: { '@id': S, rev: 1 }, source: [], added: [], removed: [] });
    });

    it('refuses a revision the item never had (RevisionNotFound), an unknown tag (TagNotFound), and rev with tag', async () => {
      const rev = await get(`${resource}/diff?from=1&to=9`);
      expect([rev.status, rev.body['@type']]).to.deep.equal([404, 'RevisionNotFound']);
      const tag = await get(`${resource}/diff?fromTag=nope`);
      expect([tag.status, tag.body['@type']]).to.deep.equal([404, 'TagNotFound']);
      const both = await get(`${resource}/diff?to=2&toTag=v1`);
      expect([both.status, both.body['@type']]).to.deep.equal([400, 'MalformedQueryParamRejection']);
      const missing = await get(`/v1/resources/o/p/_/${enc(`${EX}none`)}/diff`);
      expect([missing.status, missing.body['@type']]).to.deep.equal([404, 'ResourceNotFound']);
    });

    it('compares two items by their _self (GET /v1/diff), each with its own rev, when the caller reads both', async () => {
      const left = `${server.url}${resource}?rev=2`;
      const right = `${server.url}/v1/resources/o/q/_/${enc(OTHER)}?rev=1`;
      const res = await get(`/v1/diff?left=${enc(left)}&right=${enc(right)}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.from).to.deep.equal({ '@id': R, rev: 2 });
      expect(res.body.to).to.deep.equal({ '@id': OTHER, rev: 1 });
      expect(res.body.added).to.include(`<${OTHER}> <${EX}other> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .`);
      const refused = await get(`/v1/diff?left=${enc(left)}&right=${enc(right)}`, 'alice');
      expect([refused.status, refused.body['@type']]).to.deep.equal([403, 'AuthorizationFailed']);
      const bad = await get(`/v1/diff?left=${enc('http://elsewhere/x')}&right=${enc(right)}`);
      expect([bad.status, bad.body['@type']]).to.deep.equal([400, 'InvalidResourceSelf']);
    });
  });

  describe('blame', () => {
    it('gives each triple of a revision the revision that introduced it', async () => {
      const res = await get(`${resource}/blame`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ '@id': R, rev: 3 });
      const by = Object.fromEntries((res.body.triples as { triple: string; rev: number }[]).map((t) => [t.triple, t.rev]));
      expect(by[`<${R}> <${EX}name> "B" .`]).to.equal(2);
      const city = Object.entries(by).find(([t]) => t.includes('"Paris"'));
      expect(city?.[1], 'an unchanged blank node keeps its first revision').to.equal(1);
      expect(res.body.triples[0].subject).to.deep.equal({ '@type': 'Anonymous' });
      expect(Date.parse(res.body.triples[0].instant)).to.not.be.NaN;
    });

    it('answers as N-Quads: each triple in its revision’s graph, and a provenance graph of those revisions (PROV-O)', async () => {
      const res = await get(`${resource}/blame`, 'admin', { accept: 'application/n-quads' });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/n-quads/);
      const quads = new Parser({ format: 'N-Quads' }).parse(res.text);
      const graphOf = (match: (q: Quad) => boolean) => quads.filter(match).map((q) => q.graph.value);
      const [rev1, rev2] = graphOf((q) => q.predicate.value === `${EX}name` && q.object.value === 'B');
      expect(rev1, 'the name B came with revision 2').to.match(/\/rev\/2$/);
      expect(rev2).to.equal(undefined);
      expect(graphOf((q) => q.object.value === 'Paris')[0], 'an unchanged blank node keeps its first revision').to.match(/\/rev\/1$/);
      const provenance = quads.filter((q) => q.graph.value.endsWith('/rev/3/provenance'));
      const about = (graph: string) =>
        Object.fromEntries(provenance.filter((q) => q.subject.value === graph).map((q) => [q.predicate.value.replace(/^.*[#/]/, ''), q.object.value]));
      const PROV = 'http://www.w3.org/ns/prov#';
      for (const [rev, graph] of [
        [2, rev1!],
        [1, graphOf((q) => q.object.value === 'Paris')[0]!],
      ] as const) {
        const facts = about(graph);
        expect(facts, graph).to.deep.include({ type: `${PROV}Bundle`, specializationOf: R, rev: String(rev), wasAttributedTo: `${server.url}/v1/anonymous` });
        expect(Date.parse(facts['generatedAtTime']!)).to.not.be.NaN;
      }
      const bundles = provenance.filter((q) => q.predicate.value.endsWith('#type')).map((q) => q.subject.value);
      expect(bundles.sort(), 'the revisions that introduced a triple, each once').to.deep.equal(
        [...new Set(quads.filter((q) => !q.graph.value.endsWith('/provenance')).map((q) => q.graph.value))].sort(),
      );
      const refused = await get(`${resource}/blame`, 'admin', { accept: 'text/csv' });
      expect([refused.status, refused.body['@type']]).to.deep.equal([406, 'UnacceptedResponseContentTypeRejection']);
    });

    it('takes rev and tag, and refuses what fetch refuses', async () => {
      for (const q of ['rev=1', 'tag=v1']) {
        const res = await get(`${resource}/blame?${q}`);
        expect(res.body.rev).to.equal(1);
        expect(res.body.triples.every((t: { rev: number }) => t.rev === 1)).to.equal(true);
      }
      expect((await get(`${schema}/blame`)).status).to.equal(200);
      const tag = await get(`${resource}/blame?tag=nope`);
      expect([tag.status, tag.body['@type']]).to.deep.equal([404, 'TagNotFound']);
      const rev = await get(`${resource}/blame?rev=7`);
      expect([rev.status, rev.body['@type']]).to.deep.equal([404, 'RevisionNotFound']);
    });
  });

  describe('time travel in SPARQL', () => {
    it('queries the default graph as of an instant: each item at the revision current then', async () => {
      expect(await names('')).to.deep.equal(['B']);
      expect(await names(`&at=${enc(instants[0]!)}`)).to.deep.equal(['A']);
      expect(await names(`&at=${enc(instants[0]!)}`), 'again, the revision read back from the log kept').to.deep.equal(['A']);
      expect(await names(`&at=${enc(instants[1]!)}`)).to.deep.equal(['B']);
      expect(await names(`&at=2000-01-01T00:00:00Z`)).to.deep.equal([]);
    });

    it('queries the default graph as of a tag, named graphs staying every revision', async () => {
      expect(await names('&tag=v1')).to.deep.equal(['A']);
      expect(await names('&tag=nope')).to.deep.equal([]);
      const graphs = await sparql(`SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { <${R}> ?p ?o } }`, '&tag=v1');
      expect(graphs.body.results.bindings[0].n.value).to.equal('3');
    });

    it('refuses a malformed instant, both selectors, and graph parameters with them', async () => {
      for (const extra of ['&at=yesterday', '&at=2024-01-01T00:00:00Z&tag=v1', '&tag=v1&default-graph-uri=urn:x']) {
        const res = await sparql('SELECT * WHERE { ?s ?p ?o }', extra);
        expect([res.status, res.body['@type']], extra).to.deep.equal([400, 'MalformedQueryParamRejection']);
      }
    });
  });

  describe('ACLs: resources/read on the project', () => {
    it('lets a reader of the project read history, diffs and blame, and no one else', async () => {
      for (const path of [history('o/p', R), `${resource}/diff`, `${resource}/blame`, `${schema}/diff`, `${schema}/blame`])
        expect((await get(path, 'alice')).status, path).to.equal(200);
      for (const path of [history('o/q', OTHER), `/v1/resources/o/q/_/${enc(OTHER)}/diff`, `/v1/resources/o/q/_/${enc(OTHER)}/blame`]) {
        const res = await get(path, 'alice');
        expect([res.status, res.body['@type']], path).to.deep.equal([403, 'AuthorizationFailed']);
      }
      const anonymous = await call('GET', history('o/p', R), undefined);
      expect(anonymous.status).to.equal(403);
      expect((await sparql(`SELECT * WHERE { ?s ?p ?o }`, '&tag=v1', 'alice')).status).to.equal(200);
      expect((await get(`/v1/views/o/q/graph/sparql?query=${enc('ASK {}')}&tag=v1`, 'alice')).status).to.equal(403);
    });
  });
});
