import { expect } from 'chai';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
const METADATA = 'https://bluebrain.github.io/nexus/contexts/metadata.json';
const UNCONSTRAINED = 'https://bluebrain.github.io/nexus/schemas/unconstrained.json';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

describe('resources: lifecycle over HTTP', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  /** A fresh org and project; returns the `org/project` path part and the project base. */
  const project = async (body: Record<string, unknown> = {}) => {
    const org = unique('org');
    const proj = unique('proj');
    expect((await api.put(`/v1/orgs/${org}`, {})).status).to.equal(201);
    expect((await api.put(`/v1/projects/${org}/${proj}`, body)).status).to.equal(201);
    return { org, proj, p: `${org}/${proj}`, base: `${server.url}/v1/resources/${org}/${proj}/_/` };
  };

  const expectMetadataOnly = (body: Record<string, unknown>) => {
    expect(body['@context']).to.equal(METADATA);
    for (const key of Object.keys(body)) expect(key.startsWith('_') || key.startsWith('@'), `unexpected field ${key}`).to.equal(true);
    for (const key of ['@id', '_self', '_constrainedBy', '_project', '_rev', '_deprecated', '_createdAt', '_createdBy', '_updatedAt', '_updatedBy'])
      expect(body, key).to.have.property(key);
  };

  before(async () => {
    server = await startServer();
    api = client(server.url);
  });
  after(() => server.stop(true));

  it('creates with POST: the id is the project base plus a UUID, the response is metadata only', async () => {
    const { p, base } = await project();
    const res = await api.post(`/v1/resources/${p}/_`, { '@context': { '@vocab': 'http://schema.org/' }, '@type': 'Person', name: 'Ada' });
    expect(res.status).to.equal(201);
    expectMetadataOnly(res.body);
    const id = res.body['@id'] as string;
    expect(id.startsWith(base)).to.equal(true);
    expect(id.slice(base.length)).to.match(UUID);
    expect(res.body['@type']).to.equal('http://schema.org/Person');
    expect(res.body).to.include({ _rev: 1, _deprecated: false, _constrainedBy: UNCONSTRAINED, _project: p });
    expect(res.body['_self']).to.equal(`${server.url}/v1/resources/${p}/_/${enc(id)}`);
    expect(res.body['_createdBy']).to.equal(`${server.url}/v1/anonymous`);
    expect(res.body['_createdAt']).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const fetched = await api.get(res.body['_self'].slice(server.url.length));
    expect(fetched.status).to.equal(200);
    expect(fetched.headers.get('vary')).to.match(/accept/i);
    expect(fetched.body.name).to.equal('Ada');
    expect(fetched.body['@id']).to.equal(id);
  });

  it('creates with POST without the schema segment, exactly as with `_`', async () => {
    const { p, base } = await project();
    const res = await api.post(`/v1/resources/${p}`, { name: 'no schema segment' });
    expect(res.status).to.equal(201);
    expectMetadataOnly(res.body);
    expect(res.body['@id'].startsWith(base)).to.equal(true);
    expect(res.body['_constrainedBy']).to.equal(UNCONSTRAINED);
    // with a payload id and the JS client's `indexing=sync`
    const withId = await api.post(`/v1/resources/${p}?indexing=sync`, { '@id': 'http://example.com/posted', name: 'x' }, { accept: '*/*' });
    expect(withId.status).to.equal(201);
    expect(withId.body['@id']).to.equal('http://example.com/posted');
    expect((await api.post(`/v1/resources/${p}`, { '@id': 'http://example.com/posted' })).status).to.equal(409);
  });

  it('creates with PUT: id from the path as alias, CURIE, relative to base and encoded absolute IRI', async () => {
    const { p, base } = await project({
      apiMappings: [
        { prefix: 'ex', namespace: 'http://example.com/ns/' },
        { prefix: 'thing', namespace: 'http://example.com/the-thing' },
      ],
    });
    const curie = await api.put(`/v1/resources/${p}/_/ex:one`, { name: 'curie' });
    expect(curie.status).to.equal(201);
    expect(curie.body['@id']).to.equal('http://example.com/ns/one');
    const alias = await api.put(`/v1/resources/${p}/_/thing`, { name: 'alias' });
    expect(alias.status).to.equal(201);
    expect(alias.body['@id']).to.equal('http://example.com/the-thing');
    const relative = await api.put(`/v1/resources/${p}/_/relative-one`, { name: 'relative' });
    expect(relative.body['@id']).to.equal(`${base}relative-one`);
    const absolute = await api.put(`/v1/resources/${p}/_/${enc('https://example.org/a/b?c=d')}`, { name: 'absolute' });
    expect(absolute.status).to.equal(201);
    expect(absolute.body['@id']).to.equal('https://example.org/a/b?c=d');
    // the same payload @id as the path is fine
    const same = await api.put(`/v1/resources/${p}/_/ex:two`, { '@id': 'http://example.com/ns/two', name: 'same' });
    expect(same.status).to.equal(201);
    // each is fetched by any of its spellings
    expect((await api.get(`/v1/resources/${p}/_/${enc('http://example.com/ns/one')}`)).body.name).to.equal('curie');
    expect((await api.get(`/v1/resources/${p}/_/thing`)).body.name).to.equal('alias');
    expect((await api.get(`/v1/resources/${p}/_/${enc(`${base}relative-one`)}`)).body.name).to.equal('relative');
    // the resource schema alias also works as schema segment
    expect((await api.get(`/v1/resources/${p}/resource/relative-one`)).body.name).to.equal('relative');
    // creating again is 409
    const again = await api.put(`/v1/resources/${p}/_/relative-one`, { name: 'again' });
    expect(again.status).to.equal(409);
    expect(again.body['@type']).to.equal('ResourceAlreadyExists');
  });

  it('names revision 1 with `tag` on create', async () => {
    const { p } = await project();
    const created = await api.put(`/v1/resources/${p}/_/tagged?tag=v1`, { n: 1 });
    expect(created.status).to.equal(201);
    expect(created.body['_rev']).to.equal(1);
    const tags = await api.get(`/v1/resources/${p}/_/tagged/tags`);
    expect(tags.body).to.deep.equal({ '@context': 'https://bluebrain.github.io/nexus/contexts/tags.json', tags: [{ rev: 1, tag: 'v1' }] });
    const posted = await api.post(`/v1/resources/${p}?tag=first`, { n: 2 });
    expect(posted.status).to.equal(201);
    const postedTags = await api.get(`${posted.body['_self'].slice(server.url.length)}/tags`);
    expect(postedTags.body.tags).to.deep.equal([{ rev: 1, tag: 'first' }]);
  });

  it('updates with rev (payload replaced), ignores identical updates but applies their tag', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/upd`;
    await api.put(path, { '@context': { '@vocab': 'http://schema.org/' }, a: 1, b: 2 });
    const updated = await api.put(`${path}?rev=1`, { '@context': { '@vocab': 'http://schema.org/' }, c: 3 });
    expect(updated.status).to.equal(200);
    expectMetadataOnly(updated.body);
    expect(updated.body['_rev']).to.equal(2);
    const fetched = await api.get(path);
    expect(fetched.body).to.not.have.property('a');
    expect(fetched.body.c).to.equal(3);
    expect((await api.get(`${path}/source`)).body).to.deep.equal({ '@context': { '@vocab': 'http://schema.org/' }, c: 3 });
    // identical: same revision
    const identical = await api.put(`${path}?rev=2`, { '@context': { '@vocab': 'http://schema.org/' }, c: 3 });
    expect(identical.status).to.equal(200);
    expect(identical.body['_rev']).to.equal(2);
    expect((await api.get(path)).body['_rev']).to.equal(2);
    // identical with a tag: the tag names the current revision, still no new revision
    const tagged = await api.put(`${path}?rev=2&tag=stable`, { '@context': { '@vocab': 'http://schema.org/' }, c: 3 });
    expect(tagged.status).to.equal(200);
    expect(tagged.body['_rev']).to.equal(2);
    expect((await api.get(`${path}/tags`)).body.tags).to.deep.equal([{ rev: 2, tag: 'stable' }]);
    expect((await api.get(`${path}?tag=stable`)).body.c).to.equal(3);
    expect((await api.get(path)).body['_rev']).to.equal(2);
    // update with a tag names the new revision
    const withTag = await api.put(`${path}?rev=2&tag=next`, { '@context': { '@vocab': 'http://schema.org/' }, c: 4 });
    expect(withTag.body['_rev']).to.equal(3);
    expect((await api.get(`${path}?tag=next`)).body.c).to.equal(4);
    expect((await api.get(`${path}?tag=next`)).body['_rev']).to.equal(3);
    // old revisions are still there
    const rev1 = await api.get(`${path}?rev=1`);
    expect(rev1.body).to.include({ a: 1, b: 2, _rev: 1 });
    expect((await api.get(`${path}/source?rev=1`)).body).to.deep.equal({ '@context': { '@vocab': 'http://schema.org/' }, a: 1, b: 2 });
  });

  it('refreshes: no change keeps the revision, a changed project context makes a new one', async () => {
    const { p } = await project();
    await api.put(`/v1/resources/${p}/_/ctx`, { '@context': { name: 'http://schema.org/name' } });
    const path = `/v1/resources/${p}/_/uses-ctx`;
    const created = await api.put(path, { '@context': 'ctx', name: 'x' });
    expect(created.status).to.equal(201);
    const unchanged = await api.put(`${path}/refresh`);
    expect(unchanged.status).to.equal(200);
    expect(unchanged.body['_rev']).to.equal(1);
    expect((await api.get(path)).body['_rev']).to.equal(1);
    await api.put(`/v1/resources/${p}/_/ctx?rev=1`, { '@context': { name: 'http://example.com/name' } });
    const refreshed = await api.put(`${path}/refresh`);
    expect(refreshed.status).to.equal(200);
    expectMetadataOnly(refreshed.body);
    expect(refreshed.body['_rev']).to.equal(2);
    const nt = await api.get(path, { accept: 'application/n-triples' });
    expect(nt.text).to.contain('<http://example.com/name> "x"');
    const rc = await api.get(`${path}/remote-contexts`);
    expect(rc.body.remoteContexts[0].resource.rev).to.equal(2);
    const rc1 = await api.get(`${path}/remote-contexts?rev=1`);
    expect(rc1.body.remoteContexts[0].resource.rev).to.equal(1);
  });

  it('tags, removes tags, and lists tags', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/t`;
    await api.put(path, { v: 1 });
    await api.put(`${path}?rev=1`, { v: 2 });
    const tagged = await api.post(`${path}/tags?rev=2`, { tag: 'old', rev: 1 });
    expect(tagged.status).to.equal(201);
    expectMetadataOnly(tagged.body);
    expect(tagged.body['_rev']).to.equal(3);
    expect((await api.get(`${path}?tag=old`)).body).to.include({ v: 1, _rev: 1 });
    expect((await api.get(`${path}/source?tag=old`)).body).to.deep.equal({ v: 1 });
    expect((await api.get(`${path}/tags`)).body.tags).to.deep.equal([{ rev: 1, tag: 'old' }]);
    // the tags of revision 1 (none then)
    expect((await api.get(`${path}/tags?rev=1`)).body.tags).to.deep.equal([]);
    // moving a tag
    expect((await api.post(`${path}/tags?rev=3`, { tag: 'old', rev: 2 })).body['_rev']).to.equal(4);
    expect((await api.get(`${path}?tag=old`)).body.v).to.equal(2);
    const removed = await api.delete(`${path}/tags/old?rev=4`);
    expect(removed.status).to.equal(200);
    expectMetadataOnly(removed.body);
    expect(removed.body['_rev']).to.equal(5);
    expect((await api.get(`${path}/tags`)).body.tags).to.deep.equal([]);
    const gone = await api.get(`${path}?tag=old`);
    expect(gone.status).to.equal(404);
    expect(gone.body['@type']).to.equal('TagNotFound');
  });

  it('deprecates and undeprecates', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/dep`;
    await api.put(path, { '@type': 'http://example.com/Thing' });
    const deprecated = await api.delete(`${path}?rev=1`);
    expect(deprecated.status).to.equal(200);
    expectMetadataOnly(deprecated.body);
    expect(deprecated.body).to.include({ _rev: 2, _deprecated: true });
    expect((await api.get(path)).body['_deprecated']).to.equal(true);
    expect((await api.get(`/v1/resources/${p}`)).body['_total']).to.equal(0);
    expect((await api.get(`/v1/resources/${p}?deprecated=true`)).body['_total']).to.equal(1);
    const undeprecated = await api.put(`${path}/undeprecate?rev=2`);
    expect(undeprecated.status).to.equal(200);
    expectMetadataOnly(undeprecated.body);
    expect(undeprecated.body).to.include({ _rev: 3, _deprecated: false });
    expect((await api.get(`/v1/resources/${p}`)).body['_total']).to.equal(1);
    expect((await api.put(`${path}?rev=3`, { x: 1 })).body['_rev']).to.equal(4);
  });

  it('fetches the source exactly as sent, and annotated', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/src`;
    const payload = { '@context': { '@vocab': 'http://schema.org/' }, name: 'n', empty: null, nested: { k: null, list: [1, null, 'a'] } };
    await api.put(path, payload);
    const source = await api.get(`${path}/source`);
    expect(source.status).to.equal(200);
    expect(source.body).to.deep.equal(payload);
    expect(source.text).to.equal(JSON.stringify(payload));
    // fetch drops nulls
    const fetched = await api.get(path);
    expect(fetched.body).to.not.have.property('empty');
    const annotated = await api.get(`${path}/source?annotate=true`);
    expect(annotated.status).to.equal(200);
    expect(annotated.body['@context']).to.deep.equal([{ '@vocab': 'http://schema.org/' }, METADATA]);
    expect(annotated.body).to.include({ name: 'n', empty: null, _rev: 1, _deprecated: false, '@id': `${server.url}/v1/resources/${p}/_/src` });
    expect(annotated.body['_self']).to.equal(`${server.url}/v1/resources/${p}/_/${enc(`${server.url}/v1/resources/${p}/_/src`)}`);
    const noContext = await api.put(`/v1/resources/${p}/_/bare`, { name: 'bare' });
    expect(noContext.status).to.equal(201);
    expect((await api.get(`/v1/resources/${p}/_/bare/source?annotate=true`)).body['@context']).to.equal(METADATA);
    expect((await api.get(`/v1/resources/${p}/_/bare/source?annotate=false`)).body).to.deep.equal({ name: 'bare' });
  });

  it('lists remote contexts: project resources (with rev) and bundled service contexts', async () => {
    const { p, base } = await project();
    const ctx = await api.put(`/v1/resources/${p}/_/my-context`, { '@context': { '@vocab': 'http://schema.org/', knows: { '@type': '@id' } } });
    expect(ctx.status).to.equal(201);
    await api.put(`/v1/resources/${p}/_/my-context?rev=1`, { '@context': { '@vocab': 'http://schema.org/', knows: { '@type': '@id' }, x: 'http://x/' } });
    const path = `/v1/resources/${p}/_/uses`;
    const created = await api.put(path, { '@context': [`${base}my-context`, 'https://bluebrain.github.io/nexus/contexts/metadata.json'], name: 'u' });
    expect(created.status).to.equal(201);
    const rc = await api.get(`${path}/remote-contexts`);
    expect(rc.status).to.equal(200);
    expect(rc.body['@context']).to.equal('https://bluebrain.github.io/nexus/contexts/remote-contexts.json');
    const byType = (t: string) => rc.body.remoteContexts.filter((r: { '@type': string }) => r['@type'] === t);
    expect(byType('ProjectContextRef')).to.deep.equal([
      { '@type': 'ProjectContextRef', iri: `${base}my-context`, resource: { id: `${base}my-context`, project: p, rev: 2 } },
    ]);
    expect(byType('StaticContextRef')).to.deep.equal([{ '@type': 'StaticContextRef', iri: METADATA }]);
    // the resource compacts with its pinned context
    const fetched = await api.get(path);
    expect(fetched.body.name).to.equal('u');
    expect(fetched.body['@context']).to.deep.equal([`${base}my-context`, METADATA]);
    // a resource without remote contexts
    await api.put(`/v1/resources/${p}/_/plain`, { name: 'plain' });
    expect((await api.get(`/v1/resources/${p}/_/plain/remote-contexts`)).body.remoteContexts).to.deep.equal([]);
  });

  it('deletes permanently with prune=true: gone, out of listings and links, re-creatable, and stays gone after a restart', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/doomed`;
    await api.put(path, { '@type': 'http://example.com/Doomed', v: 1 });
    await api.put(`${path}?rev=1`, { '@type': 'http://example.com/Doomed', v: 2 });
    await api.put(`/v1/resources/${p}/_/linker`, {
      '@context': { knows: { '@id': 'http://schema.org/knows', '@type': '@id' } },
      knows: `${server.url}/v1/resources/${p}/_/doomed`,
    });
    await api.put(`/v1/resources/${p}/_/target`, { v: 0 });
    await api.put(`${path}?rev=2`, {
      '@context': { knows: { '@id': 'http://schema.org/knows', '@type': '@id' } },
      knows: `${server.url}/v1/resources/${p}/_/target`,
    });
    expect((await api.get(`/v1/resources/${p}/_/target/incoming`)).body['_total']).to.equal(1);
    const deleted = await api.delete(`${path}?prune=true`);
    expect(deleted.status).to.be.oneOf([200, 204]);
    const gone = await api.get(path);
    expect(gone.status).to.equal(404);
    expect(gone.body['@type']).to.equal('ResourceNotFound');
    expect((await api.get(`${path}?rev=1`)).status).to.equal(404);
    expect((await api.get(`${path}/source`)).status).to.equal(404);
    expect((await api.get(`/v1/resources/${p}?deprecated=true`)).body['_total']).to.equal(0);
    const all = await api.get(`/v1/resources/${p}`);
    expect(all.body['_results'].map((r: { '@id': string }) => r['@id'])).to.not.include(`${server.url}/v1/resources/${p}/_/doomed`);
    expect((await api.get(`/v1/resources/${p}?type=${enc('http://example.com/Doomed')}`)).body['_total']).to.equal(0);
    expect((await api.get(`/v1/resources/${p}/_/target/incoming`)).body['_total']).to.equal(0);
    // linker still links to the (now unknown) IRI as an external link
    const out = await api.get(`/v1/resources/${p}/_/linker/outgoing`);
    expect(out.body['_results']).to.deep.equal([{ '@id': `${server.url}/v1/resources/${p}/_/doomed`, paths: ['http://schema.org/knows'] }]);
    expect((await api.delete(`${path}?prune=true`)).status).to.equal(404);
    // the id can be created again, from revision 1
    const again = await api.put(path, { v: 'again' });
    expect(again.status).to.equal(201);
    expect(again.body['_rev']).to.equal(1);
    expect((await api.get(`${path}?rev=2`)).status).to.equal(404);
    // delete once more and restart: it stays gone
    await api.put(`/v1/resources/${p}/_/other`, { v: 'kept' });
    expect((await api.delete(`${path}?prune=true`)).status).to.be.oneOf([200, 204]);
    const dataDir = server.dataDir;
    await server.stop();
    server = await startServer({}, dataDir);
    api = client(server.url);
    // (the base url changes with the port: the project base was fixed at creation)
    const after = await api.get(path);
    expect(after.status).to.equal(404);
    expect((await api.get(`/v1/resources/${p}/_/other`)).body.v).to.equal('kept');
    expect((await api.get(`/v1/resources/${p}?deprecated=true`)).body['_total']).to.equal(0);
    expect((await api.get(`/v1/resources/${p}`)).body['_total']).to.equal(3);
  });

  it('survives a restart with every revision and tag', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/durable`;
    await api.put(`${path}?tag=t1`, { v: 1 });
    await api.put(`${path}?rev=1`, { v: 2 });
    await api.delete(`${path}?rev=2`);
    const dataDir = server.dataDir;
    await server.stop();
    server = await startServer({}, dataDir);
    api = client(server.url);
    const fetched = await api.get(path);
    expect(fetched.body).to.include({ v: 2, _rev: 3, _deprecated: true });
    expect((await api.get(`${path}?tag=t1`)).body.v).to.equal(1);
  });

  it('accepts exactly one of 10 parallel updates with the same rev', async () => {
    const { p } = await project();
    const path = `/v1/resources/${p}/_/race`;
    await api.put(path, { n: 0 });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => api.put(`${path}?rev=1`, { n: i + 1 })));
    const ok = replies.filter((r) => r.status === 200);
    const conflicts = replies.filter((r) => r.status === 409);
    expect(ok).to.have.length(1);
    expect(conflicts).to.have.length(9);
    for (const c of conflicts) {
      expect(c.body['@type']).to.equal('IncorrectRev');
      expect(c.body['@context']).to.equal('https://bluebrain.github.io/nexus/contexts/error.json');
      expect(c.body.provided).to.equal(1);
      expect(c.body.expected).to.equal(2);
    }
    const fetched = await api.get(path);
    expect(fetched.body['_rev']).to.equal(2);
    expect((await api.get(`${path}?rev=3`)).status).to.equal(404);
  });

  it('accepts exactly one of 10 parallel creates of the same id', async () => {
    const { p } = await project();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => api.put(`/v1/resources/${p}/_/same`, { n: i })));
    expect(replies.filter((r) => r.status === 201)).to.have.length(1);
    expect(replies.filter((r) => r.status === 409 && r.body['@type'] === 'ResourceAlreadyExists')).to.have.length(9);
  });

  it('accepts the headers real clients send on reads', async () => {
    const { p } = await project();
    await api.put(`/v1/resources/${p}/_/hdr`, { v: 1 });
    const res = await api.get(`/v1/resources/${p}/_/hdr`, { 'content-type': 'application/json', accept: 'application/ld+json', authorization: 'bearer' });
    expect(res.status).to.be.oneOf([200, 401]);
    const plain = await api.get(`/v1/resources/${p}/_/hdr`, { 'content-type': 'application/json', accept: 'application/ld+json' });
    expect(plain.status).to.equal(200);
    expect(plain.body.v).to.equal(1);
  });

  it('ids with #, spaces, %2F and urn: round-trip through _self', async () => {
    const { p, base } = await project();
    const cases: { segment: string; id: string }[] = [
      { segment: enc('http://example.com/thing#frag'), id: 'http://example.com/thing#frag' },
      { segment: enc('http://example.com/with space'), id: 'http://example.com/with space' },
      { segment: 'with+plus+space', id: `${base}with plus space` },
      { segment: 'with%20pct%20space', id: `${base}with pct space` },
      { segment: enc('http://example.com/a/b/c'), id: 'http://example.com/a/b/c' },
      { segment: enc('http://example.com/enc%2Finside'), id: 'http://example.com/enc%2Finside' },
      { segment: enc('urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66'), id: 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66' },
      { segment: 'urn:isbn:0451450523', id: 'urn:isbn:0451450523' },
      { segment: enc('http://example.com/plus+sign'), id: 'http://example.com/plus+sign' },
    ];
    for (const { segment, id } of cases) {
      const created = await api.put(`/v1/resources/${p}/_/${segment}`, { '@context': { '@vocab': 'http://schema.org/' }, label: id });
      expect(created.status, `${segment}: ${created.text}`).to.equal(201);
      expect(created.body['@id'], segment).to.equal(id);
      const self = created.body['_self'] as string;
      expect(self.startsWith(`${server.url}/v1/resources/${p}/_/`)).to.equal(true);
      const fetched = await api.get(self.slice(server.url.length));
      expect(fetched.status, `${self}`).to.equal(200);
      expect(fetched.body['@id'], self).to.equal(id);
      expect(fetched.body['_self']).to.equal(self);
      const updated = await api.put(`${self.slice(server.url.length)}?rev=1`, { '@context': { '@vocab': 'http://schema.org/' }, label: id, v: 2 });
      expect(updated.status, self).to.equal(200);
      expect((await api.get(`${self.slice(server.url.length)}/tags`)).status).to.equal(200);
      // locate finds it by id and by _self
      expect((await api.get(`/v1/resources/${p}?locate=${enc(id)}`)).body['_total'], id).to.equal(1);
      expect((await api.get(`/v1/resources/${p}?locate=${enc(self)}`)).body['_total'], self).to.equal(1);
    }
  });

  it('checks the schema segment on fetch', async () => {
    const { p } = await project();
    await api.put(`/v1/resources/${p}/_/sch`, { v: 1 });
    expect((await api.get(`/v1/resources/${p}/${enc(UNCONSTRAINED)}/sch`)).status).to.equal(200);
    const other = await api.get(`/v1/resources/${p}/${enc('http://example.com/other-schema')}/sch`);
    expect(other.status).to.equal(404);
    expect(other.body['@type']).to.equal('ResourceNotFound');
  });

  it('generates ids for blank-node payloads and keeps the payload @id on POST', async () => {
    const { p } = await project();
    const withId = await api.post(`/v1/resources/${p}/_`, { '@id': `${NXV.replace('vocabulary', 'x')}a`, v: 1 });
    expect(withId.status).to.equal(201);
    expect(withId.body['@id']).to.equal('https://bluebrain.github.io/nexus/x/a');
  });
});
