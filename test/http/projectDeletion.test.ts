import { expect } from 'chai';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { multipart, storagesConfig, upload } from '../support/files.js';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import { openStream } from '../support/sse.js';
import { populate, remains } from '../support/deletedProject.js';
import { loggedText } from '../support/loggedText.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

const ctx = { '@vocab': 'http://schema.org/' };
const SECRET = 'only-in-the-deleted-project';

/** `DELETE /v1/projects/{org}/{project}?rev=N&prune=true`: the project and everything in it are gone, and stay gone. */
describe('project deletion (prune=true)', function () {
  this.timeout(60_000);
  const { config, volume } = storagesConfig();
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const restart = async (fromLogAlone = false) => {
    await server.stop();
    if (fromLogAlone) rmSync(join(server.dataDir, 'projection'), { recursive: true, force: true });
    server = await startServer({ storages: config }, server.dataDir);
    api = client(server.url);
  };
  before(async () => {
    server = await startServer({ storages: config });
    api = client(server.url);
    await api.put('/v1/orgs/del', {});
    await api.put('/v1/projects/del/kept', {});
    await api.put('/v1/resources/del/kept/_/b', { '@context': ctx, name: 'kept' });
  });
  after(async () => {
    await server?.stop(true);
    rmSync(volume, { recursive: true, force: true });
  });

  /** A project `del/{label}` holding a resource at revision 2 that links into `del/kept`, a schema and a file: each test has its own. */
  const populated = async (label: string) => {
    expect((await api.put(`/v1/projects/del/${label}`, { description: SECRET })).status).to.equal(201);
    const person = { '@context': ctx, '@type': 'Person', name: SECRET, knows: { '@id': `${server.url}/v1/resources/del/kept/_/b` } };
    expect((await api.put(`/v1/resources/del/${label}/_/a`, person)).status).to.equal(201);
    expect((await api.put(`/v1/resources/del/${label}/_/a?rev=1`, person)).status).to.equal(200);
    expect((await api.put(`/v1/schemas/del/${label}/s`, { shapes: [] })).status).to.equal(201);
    expect((await upload(`${server.url}/v1/files/del/${label}/f`, 'PUT', 'bytes of the file', 'f.txt', 'text/plain')).status).to.equal(201);
    expect(filesUnder(volume).filter((f) => f.includes(join('del', label)))).to.have.length(1);
  };

  /** Nothing of the deleted project answers, and its label is free. */
  const expectGone = async (label: string) => {
    expect((await api.get(`/v1/projects/del/${label}`)).body['@type']).to.equal('ProjectNotFound');
    expect((await api.get(`/v1/resources/del/${label}/_/a`)).body['@type']).to.equal('ProjectNotFound');
    const projects = (await api.get('/v1/projects/del?size=100')).body['_results'].map((r: { _label: string }) => r._label);
    expect(projects).to.include('kept').and.not.include(label);
    const listed = (await api.get('/v1/resources?size=100')).body['_results'].map((r: { _project: string }) => r._project);
    expect(listed).to.not.include(`del/${label}`);
    const searched = await api.post('/v1/search/query', { query: { match: { name: SECRET } } });
    expect(searched.body.hits.total.value).to.equal(0);
    expect(filesUnder(volume).filter((f) => f.includes(join('del', label)))).to.deep.equal([]);
    // The log, on whichever layout the server runs (the journal's file, or Redis under TEST_LOG=redis).
    const journal = await loggedText(server);
    expect(journal).to.not.include(SECRET);
    expect(journal).to.not.include('bytes of the file');
  };

  it('removes the resources, schemas, storages, files, graphs, index entries and events; a subscriber sees ProjectMarkedForDeletion', async () => {
    await populated('p');
    const events = await openStream(`${server.url}/v1/events`);
    const stale = await api.delete('/v1/projects/del/p?rev=2&prune=true');
    expect([stale.status, stale.body['@type']]).to.deep.equal([409, 'IncorrectRev']);
    const deleted = await api.delete('/v1/projects/del/p?rev=1&prune=true');
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.include({ '@type': 'Project', _rev: 2, _markedForDeletion: true, _label: 'p' });
    const seen = await events.until((e) => e.event === 'ProjectMarkedForDeletion' && e.payload['_label'] === 'p');
    events.close();
    expect(seen.at(-1)!.payload).to.include({ '@type': 'ProjectMarkedForDeletion', _label: 'p', _rev: 2 });
    await expectGone('p');
    // The SPARQL endpoint of the project is gone with it; the other project's answers nothing of it.
    expect((await api.get(`/v1/views/del/p/graph/sparql?query=${enc('SELECT * WHERE { ?s ?p ?o }')}`)).status).to.equal(404);
    const other = await api.get(`/v1/views/del/kept/graph/sparql?query=${enc(`SELECT * WHERE { ?s ?p "${SECRET}" }`)}`);
    expect(other.body.results.bindings).to.deep.equal([]);
  });

  it('frees the label: the project and its items are created anew at revision 1', async () => {
    await populated('again');
    expect((await api.delete('/v1/projects/del/again?rev=1&prune=true')).status).to.equal(200);
    const again = await api.put('/v1/projects/del/again', {});
    expect([again.status, again.body['_rev']]).to.deep.equal([201, 1]);
    expect((await api.get('/v1/storages/del/again/defaultStorage')).body['_rev']).to.equal(1);
    const a = await api.put('/v1/resources/del/again/_/a', { '@context': ctx, name: 'new a' });
    expect([a.status, a.body['_rev']]).to.deep.equal([201, 1]);
    expect((await api.get('/v1/resources/del/again/_/a?rev=2')).body['@type']).to.equal('RevisionNotFound');
    expect((await api.get('/v1/projects/del/again/statistics')).body).to.include({ resourcesCount: 2, eventsCount: 2 });
    expect((await api.get('/v1/resources/del/again')).body['_total']).to.equal(1);
  });

  it('refuses an upload that started before the deletion and ends after it, and removes its bytes (issue 32, finding 8)', async () => {
    expect((await api.put('/v1/projects/del/inflight', {})).status).to.equal(201);
    const { body, type } = multipart([{ name: 'file', filename: 'late.txt', type: 'text/plain', data: 'bytes sent before the deletion, and after it' }]);
    let sending!: ClientRequest;
    const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(`${server.url}/v1/files/del/inflight/late`, { method: 'PUT', headers: { 'content-type': type } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', reject);
      sending = req;
    });
    sending.write(body.subarray(0, body.length - 20));
    // Its bytes reach the volume: the server checked the project and streams them.
    const inProject = () => filesUnder(volume).filter((f) => f.includes(join('del', 'inflight')));
    while (inProject().length === 0) await new Promise((r) => setTimeout(r, 10));
    expect((await api.delete('/v1/projects/del/inflight?rev=1&prune=true')).status).to.equal(200);
    expect((await api.put('/v1/projects/del/inflight', {})).status).to.equal(201);
    sending.end(body.subarray(body.length - 20));
    const refused = await answer;
    expect([refused.status, refused.body['@type']]).to.deep.equal([404, 'ProjectNotFound']);
    expect((await api.get('/v1/files/del/inflight/late')).status).to.equal(404);
    expect((await api.get('/v1/files/del/inflight')).body['_total']).to.equal(0);
    expect(inProject()).to.deep.equal([]);
    // The project created again takes the same file.
    expect((await upload(`${server.url}/v1/files/del/inflight/late`, 'PUT', 'new bytes', 'late.txt', 'text/plain')).status).to.equal(201);
  });

  it('leaves nothing that comes back after a restart, from the snapshot or from the log alone', async () => {
    await populated('restarted');
    expect((await api.delete('/v1/projects/del/restarted?rev=1&prune=true')).status).to.equal(200);
    for (const fromLogAlone of [false, true]) {
      await restart(fromLogAlone);
      await expectGone('restarted');
      expect((await api.get('/v1/resources/del/kept/_/b')).body['name']).to.equal('kept');
    }
  });
});

/** Every kind a project held goes with it, its archives, the ACL on its path and its counts too (issue 32, finding 7). */
describe('project deletion (prune=true): every kind, archive, ACL and count', function () {
  this.timeout(60_000);
  const { config, volume } = storagesConfig();
  let server: TestServer;
  before(async () => {
    server = await startServer({ storages: config });
    await client(server.url).put('/v1/orgs/k', {});
  });
  after(async () => {
    await server?.stop(true);
    rmSync(volume, { recursive: true, force: true });
  });

  it('leaves no file, view, archive, ACL, text or event count for the project created again under its label', async () => {
    const counted = await populate(server.url, 'k/p');
    const api = client(server.url);
    expect((await api.delete('/v1/projects/k/p?rev=1&prune=true')).status).to.equal(200);
    expect((await api.put('/v1/projects/k/p', {})).status).to.equal(201);
    expect(await remains(server.url, 'k/p', counted)).to.deep.equal([]);
  });
});
