import { expect } from 'chai';
import { client, enc } from './client.js';
import { upload } from './files.js';

export const SECRET = 'only-in-the-deleted-project';
export const OLD_FILENAME = 'old-name-of-the-deleted-file.txt';
const ctx = { '@vocab': 'http://schema.org/' };
const READERS = { acl: [{ identity: { '@type': 'Anonymous' }, permissions: ['resources/read'] }] };

/**
 * A project `{org}/{label}` holding one item of every kind a project holds (a resource, a file, a
 * SPARQL view, besides the default storage, resolver and views), an archive and an ACL on its
 * path. Resolves to the events its default views counted.
 */
export const populate = async (base: string, project: string): Promise<number> => {
  const api = client(base);
  expect((await api.put(`/v1/projects/${project}`, {})).status).to.equal(201);
  expect((await upload(`${base}/v1/files/${project}/f`, 'PUT', 'old bytes', OLD_FILENAME, 'text/plain')).status).to.equal(201);
  expect((await api.put(`/v1/views/${project}/oldview`, { '@type': 'SparqlView' })).status).to.equal(201);
  expect((await api.put(`/v1/resources/${project}/_/r`, { '@context': ctx, name: SECRET })).status).to.equal(201);
  expect(
    (await api.put(`/v1/archives/${project}/arch`, { resources: [{ '@type': 'Resource', resourceId: 'r' }] }, { accept: 'application/ld+json' })).status,
  ).to.equal(201);
  expect((await api.put(`/v1/acls/${project}?rev=0`, READERS)).status).to.equal(201);
  const counted = (await api.get(`/v1/views/${project}/nxv:defaultSparqlIndex/statistics`)).body.totalEvents as number;
  expect(counted).to.be.at.least(3);
  return counted;
};

/**
 * What the project deleted (prune=true) and created again under its label still shows of its
 * former self, as its readers see it: one line per thing found (none is the aim).
 */
export const remains = async (base: string, project: string, counted: number): Promise<string[]> => {
  const api = client(base);
  const found: string[] = [];
  const check = (what: string, ok: boolean) => void (ok || found.push(what));
  const sparql = async (query: string) => (await api.get(`/v1/views/${project}/graph/sparql?query=${enc(query)}`)).body.results.bindings as unknown[];
  check('files listing counts the old file', (await api.get(`/v1/files/${project}`)).body._total === 0);
  check('old file answers', (await api.get(`/v1/files/${project}/f`)).status === 404);
  const views = (await api.get(`/v1/views/${project}`)).body._results as { '@id': string }[];
  check('views listing shows the old view', !views.some((v) => v['@id'].endsWith('oldview')));
  check('old view answers', (await api.get(`/v1/views/${project}/oldview`)).status === 404);
  check('old archive answers', (await api.get(`/v1/archives/${project}/arch`)).status === 404);
  check('old archive downloads', (await fetch(`${base}/v1/archives/${project}/arch`, { headers: { accept: 'application/x-tar' } })).status === 404);
  check('SPARQL sees the old file', (await sparql(`SELECT ?s WHERE { ?s ?p "${OLD_FILENAME}" }`)).length === 0);
  check('SPARQL sees the old view', (await sparql('SELECT ?s WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?s), "oldview")) }')).length === 0);
  check('SPARQL sees the old resource', (await sparql(`SELECT ?s WHERE { ?s ?p "${SECRET}" }`)).length === 0);
  check('search finds the old resource', (await api.post('/v1/search/query', { query: { match: { name: SECRET } } })).body.hits.total.value === 0);
  check('listing q finds the old resource', (await api.get(`/v1/resources/${project}?q=${enc(SECRET)}`)).body._total === 0);
  // The ACL on its path went with it, as Delta's deletion tasks purge it; its revisions start again.
  check('the ACL on its path', (await api.get(`/v1/acls/${project}?self=false`)).body._total === 0);
  check('the ACL on its path keeps its revision', (await api.put(`/v1/acls/${project}?rev=0`, READERS)).status === 201);
  for (const view of ['nxv:defaultElasticSearchIndex', 'nxv:defaultSparqlIndex']) {
    // Only the new project's own events: its default storage, resolver and views.
    const { totalEvents } = (await api.get(`/v1/views/${project}/${view}/statistics`)).body as { totalEvents: number };
    check(`${view} statistics count ${totalEvents} events, the old ones among them`, totalEvents < counted);
  }
  return found;
};
