import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { client, enc } from '../support/client.js';
import { EX, schemaPayload } from '../support/schemas.js';
import type { Config } from '../../src/config/Config.js';
import { upload } from '../support/files.js';
import { clearVirtuoso, releaseVirtuoso, useVirtuoso } from '../support/virtuoso.js';

const S = 'http://schema.org/';
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

interface Item {
  '@id': string;
  _score: number;
  [k: string]: unknown;
}

/** The same tests with the text index embedded (SQLite FTS5) and on the external store (Virtuoso's word triples). */
for (const store of ['embedded', 'external'] as const)
  describe(`full text in listings (q) (${store} store)`, function () {
    this.timeout(120_000);
    let server: TestServer;
    let api: ReturnType<typeof client>;
    const ids = (results: Item[]) => results.map((r) => r['@id']);

    const project = async (org = unique('org')) => {
      const proj = unique('proj');
      await api.put(`/v1/orgs/${org}`, {});
      expect((await api.put(`/v1/projects/${org}/${proj}`, { apiMappings: [{ prefix: 'schema', namespace: S }] })).status).to.equal(201);
      return { org, p: `${org}/${proj}`, base: `${server.url}/v1/resources/${org}/${proj}/_/` };
    };
    const create = async (p: string, id: string, payload: Record<string, unknown>, query = '') => {
      const res = await api.put(`/v1/resources/${p}/_/${id}${query}`, { '@context': { '@vocab': S }, ...payload });
      expect(res.status, res.text).to.equal(201);
      return res.body as Item;
    };
    const search = async (path: string) => {
      const res = await api.get(path);
      expect(res.status, res.text).to.equal(200);
      return res.body as { _total: number; _maxScore?: number; _results: Item[]; _next?: string };
    };

    before(async () => {
      const external: Partial<Config> = {};
      if (store === 'external') {
        const virtuoso = await useVirtuoso();
        await clearVirtuoso(virtuoso.server);
        external.sparqlStore = virtuoso.server;
      }
      server = await startServer(external);
      api = client(server.url);
    });
    after(async () => {
      await server.stop(true);
      if (store === 'external') await releaseVirtuoso();
    });

    it('selects items whose values contain the words, at any depth, case-insensitively, the last word a prefix, ranked by score', async () => {
      const a = await project();
      await create(a.p, 'alice', { '@type': 'Person', name: 'Alice Liddell', address: { city: 'Oxford', street: 'Christ Church' } });
      await create(a.p, 'bob', { '@type': 'Person', name: 'Bob Oxford Oxford', knows: [{ name: 'Alice in Oxford' }] });
      await create(a.p, 'carol', { '@type': 'Person', name: 'Carol', note: 'lives in Cambridge' });
      const oxford = await search(`/v1/resources/${a.p}?q=OXFORD`);
      expect(oxford._total).to.equal(2);
      expect(ids(oxford._results).sort()).to.deep.equal([`${a.base}alice`, `${a.base}bob`]);
      // Bob says Oxford three times: he ranks first; scores descend and the best is `_maxScore`.
      expect(oxford._results[0]!['@id']).to.equal(`${a.base}bob`);
      expect(oxford._results[0]!._score).to.be.above(oxford._results[1]!._score);
      expect(oxford._maxScore).to.equal(oxford._results[0]!._score);
      expect(ids((await search(`/v1/resources/${a.p}?q=christ%20chur`))._results)).to.deep.equal([`${a.base}alice`]);
      expect(ids((await search(`/v1/resources/${a.p}?q=cambr`))._results)).to.deep.equal([`${a.base}carol`]);
      // The words as a phrase: both present but apart does not match.
      expect((await search(`/v1/resources/${a.p}?q=church%20christ`))._total).to.equal(0);
      // Nor across two values: Alice's street and city are adjacent in her payload.
      expect((await search(`/v1/resources/${a.p}?q=oxford%20christ`))._total).to.equal(0);
      expect((await search(`/v1/resources/${a.p}?q=nothing-like-this`))._total).to.equal(0);
      expect((await search(`/v1/resources/${a.p}?q=%20`))._total).to.equal(0);
      const plain = await search(`/v1/resources/${a.p}`);
      expect(plain).to.not.have.property('_maxScore');
      expect(plain._results[0]).to.not.have.property('_score');
    });

    it('works at organization and global scope, and for schemas', async () => {
      const word = unique('zebra');
      const a = await project();
      const b = await project(a.org);
      const c = await project();
      await create(a.p, 'x', { name: `${word} one` });
      await create(b.p, 'y', { name: `${word} two` });
      await create(c.p, 'z', { name: `${word} three` });
      expect((await search(`/v1/resources/${a.org}?q=${word}`))._total).to.equal(2);
      expect((await search(`/v1/resources?q=${word}`))._total).to.equal(3);
      expect((await search(`/v1/resources/${a.p}/_?q=${word}`))._total).to.equal(1);
      const schemaId = `${EX}${unique('schema')}`;
      expect((await api.post(`/v1/schemas/${a.p}`, schemaPayload(schemaId, 'Giraffe', { height: {} }))).status).to.equal(201);
      const schemas = await search(`/v1/schemas/${a.p}?q=giraffe`);
      expect(ids(schemas._results)).to.deep.equal([schemaId]);
      expect((await search(`/v1/schemas/${a.org}?q=giraffe`))._total).to.equal(1);
      expect((await search(`/v1/resources/${a.p}?q=giraffe`))._total).to.equal(0);
    });

    it("puts an exact @id match first, also written relative to the project's base", async () => {
      const a = await project();
      await create(a.p, 'target', { name: 'plain' });
      const self = `${a.base}target`;
      for (let i = 0; i < 3; i++) await create(a.p, `other${i}`, { name: `mentions ${self} ${self} ${self}` });
      const byId = await search(`/v1/resources/${a.p}?q=${enc(self)}`);
      expect(byId._total).to.equal(4);
      expect(byId._results[0]!['@id']).to.equal(self);
      expect(byId._results[0]!._score).to.be.below(byId._maxScore!);
      // A term the project's base resolves counts as the same @id.
      expect((await search(`/v1/resources/${a.p}?q=target`))._results[0]!['@id']).to.equal(self);
    });

    it('combines with the other filters, hides deprecated items unless asked, and keeps totals and cursors exact', async () => {
      const a = await project();
      const created: string[] = [];
      for (let i = 0; i < 17; i++) {
        const item = await create(a.p, `item${i}`, { '@type': i % 2 ? 'Person' : 'Dataset', text: `common ${'word '.repeat(i % 4)}` });
        created.push(item['@id']);
      }
      expect((await search(`/v1/resources/${a.p}?q=common&type=schema:Person`))._total).to.equal(8);
      expect((await search(`/v1/resources/${a.p}?q=common&type=schema:Person&createdAt=*..2999-01-01T00:00:00Z`))._total).to.equal(8);
      const deprecated = await api.delete(`/v1/resources/${a.p}/_/item0?rev=1`);
      expect(deprecated.status, deprecated.text).to.equal(200);
      expect((await search(`/v1/resources/${a.p}?q=common`))._total).to.equal(16);
      expect(ids((await search(`/v1/resources/${a.p}?q=common&deprecated=true`))._results)).to.deep.equal([created[0]]);
      // Walking `_next` gives every item once, in descending score, with the same total on every page.
      const seen: Item[] = [];
      let next: string | undefined = `/v1/resources/${a.p}?q=common&size=5`;
      while (next) {
        const page = await search(next.startsWith('http') ? next.slice(server.url.length) : next);
        expect(page._total).to.equal(16);
        seen.push(...page._results);
        next = page._next;
      }
      expect(ids(seen).sort()).to.deep.equal(created.slice(1).sort());
      for (let i = 1; i < seen.length; i++) expect(seen[i]!._score).to.be.at.most(seen[i - 1]!._score);
      const offsetPage = await search(`/v1/resources/${a.p}?q=common&size=5&from=5`);
      expect(ids(offsetPage._results)).to.deep.equal(ids(seen.slice(5, 10)));
      const aggregated = await search(`/v1/resources/${a.p}?q=common&aggregations=true`);
      expect(aggregated).to.deep.include({ total: 16 });
      const buckets = (aggregated as unknown as { aggregations: { types: { buckets: { key: string; doc_count: number }[] } } }).aggregations.types.buckets;
      expect(buckets).to.deep.equal([
        { key: `${S}Dataset`, doc_count: 8 },
        { key: `${S}Person`, doc_count: 8 },
      ]);
    });

    it('finds a write as soon as it is acknowledged (indexing=sync and async), and follows updates', async () => {
      const a = await project();
      const word = unique('quokka');
      await create(a.p, 'w', { name: word }, '?indexing=sync');
      expect((await search(`/v1/resources/${a.p}?q=${word}`))._total).to.equal(1);
      const other = unique('wombat');
      await create(a.p, 'v', { name: other }, '?indexing=async');
      expect((await search(`/v1/resources/${a.p}?q=${other}`))._total).to.equal(1);
      const updated = await api.put(`/v1/resources/${a.p}/_/w?rev=1&indexing=sync`, { '@context': { '@vocab': S }, name: 'renamed' });
      expect(updated.status, updated.text).to.equal(200);
      expect((await search(`/v1/resources/${a.p}?q=${word}`))._total).to.equal(0);
      expect((await search(`/v1/resources/${a.p}?q=renamed`))._total).to.equal(1);
      expect((await api.delete(`/v1/resources/${a.p}/_/w?prune=true`)).status).to.equal(204);
      expect((await search(`/v1/resources/${a.p}?q=renamed`))._total).to.equal(0);
    });

    it('sorts the matches by sort instead of score when asked, with exact totals and cursors, scores kept', async () => {
      const a = await project();
      for (let i = 0; i < 9; i++)
        await create(a.p, `s${i}`, { name: `heron ${String.fromCharCode(105 - i)}`, rank: i % 3, text: 'heron '.repeat(1 + (i % 4)) });
      await create(a.p, 'other', { name: 'egret' });
      const sorted = await search(`/v1/resources/${a.p}?q=heron&sort=name&size=4`);
      expect(sorted._total).to.equal(9);
      expect(sorted._maxScore).to.be.a('number');
      expect(sorted._results.map((r) => r._score)).to.satisfy((xs: number[]) => xs.every((x) => typeof x === 'number' && x > 0));
      const seen: Item[] = [];
      let next: string | undefined = `/v1/resources/${a.p}?q=heron&sort=name&size=4`;
      while (next) {
        const page = await search(next.startsWith('http') ? next.slice(server.url.length) : next);
        expect(page._total).to.equal(9);
        seen.push(...page._results);
        next = page._next;
      }
      // Names run from 'heron i' (s0) down to 'heron a' (s8): ascending by name is s8 ... s0.
      expect(ids(seen)).to.deep.equal(Array.from({ length: 9 }, (_, i) => `${a.base}s${8 - i}`));
      expect(ids((await search(`/v1/resources/${a.p}?q=heron&sort=-rank&sort=@id&size=3`))._results)).to.deep.equal([2, 5, 8].map((i) => `${a.base}s${i}`));
      expect((await search(`/v1/resources/${a.p}?q=nomatch&sort=name`))._total).to.equal(0);
    });

    it('finds storages and files by their attributes and names', async () => {
      const a = await project();
      // The project's default storage, a DiskStorage.
      expect((await search(`/v1/storages/${a.p}?q=diskstor`))._total).to.equal(1);
      const word = unique('pelican');
      expect((await upload(`${server.url}/v1/files/${a.p}/notes`, 'PUT', 'hello', `${word}-notes.txt`, 'text/plain')).status).to.equal(201);
      expect((await search(`/v1/files/${a.p}?q=${word}%20notes`))._total).to.equal(1);
      expect((await search(`/v1/files/${a.p}?q=notes%20${word}`))._total).to.equal(0);
      expect((await search(`/v1/files/${a.p}?q=diskstor`))._total).to.equal(0);
    });

    it(`keeps ${store === 'external' ? 'no' : 'its'} text index in the data directory, and answers q listings and searches`, async () => {
      const a = await project();
      const word = unique('ibis');
      await create(a.p, 'i', { name: `${word} bird` });
      expect(existsSync(join(server.dataDir, 'projection', 'text.sqlite'))).to.equal(store === 'embedded');
      expect(ids((await search(`/v1/resources/${a.p}?q=${word}%20bi`))._results)).to.deep.equal([`${a.base}i`]);
      const found = await api.post('/v1/search/query', { query: { match: { name: word } } });
      expect(found.status, found.text).to.equal(200);
      expect(found.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal([`${a.base}i`]);
    });

    it('rejects a cursor of another listing', async () => {
      const a = await project();
      const wrongCursor = await api.get(`/v1/resources/${a.p}?q=x&after=${enc(JSON.stringify([{ type: 'uri', value: 'urn:x' }]))}`);
      expect(wrongCursor.status).to.equal(400);
      expect(wrongCursor.body['@type']).to.equal('MalformedQueryParamRejection');
    });
  });

describe('full text in listings: the text index is rebuilt from the log', () => {
  it('gives the same answers after a restart with the index file deleted, and with it kept', async () => {
    const first = await startServer();
    const api = client(first.url);
    const p = `${unique('org')}/${unique('proj')}`;
    await api.put(`/v1/orgs/${p.split('/')[0]}`, {});
    await api.put(`/v1/projects/${p}`, {});
    for (let i = 0; i < 12; i++)
      expect((await api.put(`/v1/resources/${p}/_/r${i}`, { '@context': { '@vocab': S }, name: `kestrel ${i % 3 ? 'hawk' : 'falcon'}` })).status).to.equal(201);
    await api.put(`/v1/resources/${p}/_/r0?rev=1`, { '@context': { '@vocab': S }, name: 'kestrel osprey' });
    await api.delete(`/v1/resources/${p}/_/r1?rev=1`);
    await api.delete(`/v1/resources/${p}/_/r2?prune=true`);
    const queries = ['kestrel', 'falcon', 'osprey', 'hawk&deprecated=true'].map((q) => `/v1/resources/${p}?q=${q}&size=100`);
    // Ids keep the first server's address; `_self` and the subjects follow each server's.
    const answers = async (base: string) =>
      Promise.all(
        queries.map(async (q) => {
          const body = (await client(base).get(q)).body as { _total: number; _maxScore: number; _results: Item[] };
          return { total: body._total, maxScore: body._maxScore, results: body._results.map((r) => [r['@id'], r._score, r['_rev'], r['_deprecated']]) };
        }),
      );
    const before = await answers(first.url);
    expect(before.map((b) => b.total)).to.deep.equal([10, 3, 1, 1]);
    await first.stop();
    const kept = await startServer({}, first.dataDir);
    expect(await answers(kept.url)).to.deep.equal(before);
    await kept.stop();
    for (const name of ['text.sqlite', 'text.sqlite-wal', 'text.sqlite-shm']) rmSync(join(first.dataDir, 'projection', name), { force: true });
    const rebuilt = await startServer({}, first.dataDir);
    expect(await answers(rebuilt.url)).to.deep.equal(before);
    await rebuilt.stop(true);
  });
});

describe('full text: a registry without its text index (TEXT_INDEX=off)', () => {
  it('refuses q with 400 and serves no search API', async () => {
    const server = await startServer({ textIndex: false });
    try {
      const api = client(server.url);
      await api.put('/v1/orgs/o', {});
      await api.put('/v1/projects/o/p', {});
      expect((await api.put('/v1/resources/o/p/_/r', { '@context': { '@vocab': S }, name: 'kept' })).status).to.equal(201);
      const q = await api.get('/v1/resources/o/p?q=kept');
      expect(q.status).to.equal(400);
      expect(q.body['reason']).to.contain('TEXT_INDEX=off');
      expect((await api.get('/v1/resources/o/p')).body['_total']).to.equal(1);
      expect((await api.post('/v1/search/query', {})).status).to.equal(404);
    } finally {
      await server.stop(true);
    }
  });
});

describe('full text: a text index that differs from the log is reconciled at start', () => {
  it('re-indexes missing or stale items, refreshes metadata, drops items the log no longer has', async () => {
    const first = await startServer();
    const api = client(first.url);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
    for (const id of ['a', 'b', 'c'])
      expect((await api.put(`/v1/resources/o/p/_/${id}`, { '@context': { '@vocab': S }, name: `plover ${id}` })).status).to.equal(201);
    expect((await api.delete('/v1/resources/o/p/_/c?rev=1')).status).to.equal(200);
    await first.stop();
    // Tamper with the file as a crash between a write and its group commit could leave it.
    const db = new Database(join(first.dataDir, 'projection', 'text.sqlite'));
    const row = (id: string) => db.prepare('SELECT rowid, doc FROM docs WHERE id LIKE ?').get(`%/${id}`) as { rowid: number; doc: string };
    const a = row('a');
    db.prepare('DELETE FROM words WHERE rowid = ?').run(a.rowid);
    db.prepare('DELETE FROM docs WHERE rowid = ?').run(a.rowid);
    const c = row('c');
    db.prepare('UPDATE docs SET rev = 1, doc = ? WHERE rowid = ?').run(JSON.stringify({ ...JSON.parse(c.doc), _rev: 1, _deprecated: false }), c.rowid);
    db.prepare(
      "INSERT INTO docs (node, kind, project, id, content_seq, rev, deprecated, doc) VALUES ('urn:registry:resources/o/p/stray', 'resources', 'o/p', 'stray', 1, 1, 0, '{}')",
    ).run();
    const stray = db.prepare("SELECT rowid FROM docs WHERE id = 'stray'").get() as { rowid: number };
    db.prepare('INSERT INTO words (rowid, body) VALUES (?, ?)').run(stray.rowid, 'plover stray');
    db.close();
    // The index records its position only once committed, so a crash never leaves it behind it; a
    // file changed behind its back is reconciled when its position is not trusted (none recorded here).
    rmSync(join(first.dataDir, 'projection', 'checkpoints.json'), { force: true });
    const second = await startServer({}, first.dataDir);
    try {
      const again = client(second.url);
      const found = await again.get('/v1/resources/o/p?q=plover&size=10');
      expect((found.body['_results'] as Item[]).map((r) => r['@id'].split('/').pop()).sort()).to.deep.equal(['a', 'b']);
      const search = await again.post('/v1/search/query', { query: { match: { name: 'plover' } } });
      expect((search.body.hits.hits as { _id: string }[]).map((h) => h._id.split('/').pop()).sort()).to.deep.equal(['a', 'b']);
      const deprecated = await again.get('/v1/resources/o/p?q=plover&deprecated=true');
      expect(deprecated.body['_total']).to.equal(1);
    } finally {
      await second.stop(true);
    }
  });
});
