import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE } from '../../src/store/graphNames.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { recordingProxy } from '../support/recordingProxy.js';
import type { RecordingProxy } from '../support/recordingProxy.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import { RemoteGraphStore } from '../../src/store/RemoteGraphStore.js';
import { SparqlHttpClient } from '../../src/store/SparqlHttpClient.js';
import type { Virtuoso } from '../support/virtuoso.js';

interface Replica {
  proc: Proc;
  /** What this replica, and it alone, sends the store. */
  proxy: RecordingProxy;
  dir: string;
}

const json = { 'content-type': 'application/json' };
const id = (n: number) => encodeURIComponent(`http://x/r${n}`);
const payload = (n: number, extra: Record<string, unknown> = {}) => ({ '@type': 'http://x/T', 'http://x/n': n, ...extra });
const catalogueWrites = (r: Replica) => r.proxy.writes().filter((w) => w.update.includes(`<${CATALOGUE}>`));

/** A replica's writes by what they write. */
const tally = (r: Replica): string => {
  const kinds: Record<string, number> = {};
  for (const w of r.proxy.writes()) {
    const kind = w.update.includes('urn:registry:position')
      ? 'position'
      : w.update.includes(`<${CATALOGUE}>`)
        ? 'catalogue'
        : w.update.includes('urn:registry:text/') || w.update.includes('urn:registry:search/')
          ? 'text'
          : w.update.includes('urn:registry:heads/')
            ? 'heads'
            : /^INSERT (DATA )?\{\nGRAPH <[^>]*\/rev\/\d+>/.test(w.update)
              ? 'revision'
              : w.update
                ? 'other'
                : 'graph upload';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return `${r.proxy.writes().length} (${JSON.stringify(kinds)})`;
};

/** What a replica answers, as compared between replicas: the listings of every kind the store and the indexes serve. */
const answers = async (r: Replica): Promise<unknown[]> => {
  const read = async (path: string) => {
    const answer = await fetch(`${r.proc.url}${path}`);
    expect(answer.status, path).to.equal(200);
    const body = (await answer.json()) as { _results?: { '@id': string; _rev: number }[]; _total?: number; aggregations?: unknown };
    return body._results ? { total: body._total, results: body._results.map((x) => [x['@id'], x._rev]) } : body;
  };
  return [
    await read('/v1/resources/o/p'),
    await read('/v1/resources/o/p?sort=-_updatedAt'),
    await read(`/v1/resources/o/p?sort=${encodeURIComponent('http://x/n')}`),
    await read('/v1/resources/o/p?aggregations=true'),
    await read(`/v1/resources/o/p/_/${id(1)}/incoming`),
    // Full text on the store (listings' words, the search documents): written by the holder too.
    await read('/v1/resources/o/p?q=r3'),
  ];
};

describe('the lease holder alone writes the external store, the catalogue graph included (two replicas, one Redis, one Virtuoso)', function () {
  this.timeout(180_000);
  let virtuoso: Virtuoso;
  let prefix: string;
  const replicas: Replica[] = [];
  before(async () => void (virtuoso = await useVirtuoso()));
  after(async () => {
    await clearVirtuoso(virtuoso.server);
    await releaseVirtuoso();
  });
  afterEach(async () => {
    killStarted();
    for (const r of replicas.splice(0)) {
      await r.proxy.close();
      rmSync(r.dir, { recursive: true, force: true });
    }
    await dropPrefix(prefix);
  });

  const replica = async (dir = mkdtempSync(join(tmpdir(), 'registry-writer-'))): Promise<Replica> => {
    const proxy = await recordingProxy(virtuoso.server);
    const port = await freePort();
    const proc = start({
      PORT: String(port),
      BASE_URL: 'http://registry.test',
      DATA_DIR: dir,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      STORAGE_PASSWORD: 'shared',
      ...storeEnv(proxy.server),
      STORE_LEASE_MILLIS: '3000',
    });
    const made = { proc, proxy, dir };
    replicas.push(made);
    await ready(proc);
    return made;
  };
  const holds = (r: Replica) => {
    const out = r.proc.output();
    return out.lastIndexOf('store projection: this replica holds the lease') > out.lastIndexOf('store projection: the lease was lost');
  };
  const put = async (r: Replica, path: string, body: unknown) => {
    const answer = await fetch(`${r.proc.url}${path}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
    expect(answer.status, `${path}: ${await answer.clone().text()}`).to.be.oneOf([200, 201]);
  };

  it('writes each change into the catalogue graph once, by the holder; listings agree on both; a non-holder restarted, on its data directory or an empty one, writes nothing', async () => {
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('store-writer');
    const a = await replica();
    const b = await replica();
    await put(a, '/v1/orgs/o', {});
    await put(b, '/v1/projects/o/p', {});
    for (let i = 0; i < 200 && !holds(a) && !holds(b); i++) await new Promise((r) => setTimeout(r, 20));
    const [holder, other] = holds(a) ? [a, b] : [b, a];
    expect(holds(other)).to.equal(false);

    // Once what the setup wrote (the project's default storage too) is in the store, counting starts.
    expect((await fetch(`${other.proc.url}/v1/resources/o/p?aggregations=true`)).status).to.equal(200);
    for (const r of replicas) r.proxy.clear();
    for (let n = 1; n <= 4; n++)
      await put(n % 2 ? a : b, `/v1/resources/o/p/_/${id(n)}`, payload(n, n > 1 ? { 'http://x/link': { '@id': 'http://x/r1' } } : {}));
    await put(b, `/v1/resources/o/p/_/${id(1)}?rev=1`, payload(10));
    await put(a, `/v1/resources/o/p/_/${id(2)}?rev=1`, payload(20));
    const changes = 6;
    // Each replica answers once the store holds every write: the holder's writes, heard by the other.
    const seen = await answers(other);
    expect(await answers(holder)).to.deep.equal(seen);
    expect(seen[0]).to.deep.include({ total: 4 });
    expect((seen[2] as { results: [string, number][] }).results.map(([at]) => at)).to.deep.equal(['http://x/r3', 'http://x/r4', 'http://x/r1', 'http://x/r2']);
    expect(seen[4]).to.deep.include({ total: 2 });
    // The figure the report quotes: every write the store took for these changes.
    console.log(`      store writes for ${changes} changes: holder ${tally(holder)}; other ${tally(other)}`);
    expect(catalogueWrites(other)).to.have.length(0);
    // One update per batch, whatever it holds.
    expect(catalogueWrites(holder).length).to.be.within(1, changes);
    expect(other.proxy.writes()).to.deep.equal([]);
    // It heard how far the store is from the holder (Redis), without asking the store.
    expect(other.proxy.requests.filter((r) => r.query.includes('urn:registry:position'))).to.deep.equal([]);

    // The other replica restarted on its data directory, then on an empty one: it writes nothing and answers as before.
    for (const fresh of [false, true]) {
      other.proc.child.kill('SIGKILL');
      await other.proc.exited;
      await other.proxy.close();
      replicas.splice(replicas.indexOf(other), 1);
      const back = await replica(fresh ? undefined : other.dir);
      expect(await answers(back)).to.deep.equal(seen);
      expect(back.proxy.writes()).to.deep.equal([]);
      expect(holds(back)).to.equal(false);
      Object.assign(other, back);
    }
    // A write on the restarted one is written by the holder and read on both.
    holder.proxy.clear();
    await put(other, `/v1/resources/o/p/_/${id(5)}`, payload(5));
    expect(await answers(other)).to.deep.equal(await answers(holder));
    expect(catalogueWrites(holder)).to.have.length(1);
    expect(other.proxy.writes()).to.deep.equal([]);
  });

  it('writes a batch at once; a new holder writing the batches again from an older position (a takeover mid-batch) changes nothing, blank nodes included', async () => {
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('store-replay');
    const a = await replica();
    await put(a, '/v1/orgs/o', {});
    await put(a, '/v1/projects/o/p', {});
    expect((await fetch(`${a.proc.url}/v1/resources/o/p`)).status).to.equal(200);
    const store = new RemoteGraphStore(new SparqlHttpClient(virtuoso.server, { timeoutMillis: 10_000 }), {
      graphPrefix: 'urn:registry:',
      markerGraph: 'urn:registry:store',
    });
    const before = (await store.recordedPosition())!;
    a.proxy.clear();
    // Written together, they are projected in a few batches; blank nodes, new revisions and deprecations (copied graphs) among them.
    const nested = (n: number) => payload(n, { 'http://x/nested': { 'http://x/v': n }, 'http://x/link': { '@id': 'http://x/r1' } });
    await Promise.all(Array.from({ length: 24 }, (_, n) => put(a, `/v1/resources/o/p/_/${id(n + 1)}`, nested(n + 1))));
    await Promise.all(Array.from({ length: 6 }, (_, n) => put(a, `/v1/resources/o/p/_/${id(n + 1)}?rev=1`, nested(100 + n))));
    for (const n of [7, 8]) expect((await fetch(`${a.proc.url}/v1/resources/o/p/_/${id(n)}?rev=1`, { method: 'DELETE' })).status).to.equal(200);
    const seen = await answers(a);
    const changes = 32;
    console.log(`      store writes for ${changes} changes written together: ${tally(a)}`);
    // The graphs, heads, catalogue and full text of a batch in a few requests.
    expect(a.proxy.writes().length).to.be.below(changes);
    const content = async () => [
      await store.select(
        'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "urn:registry:") && ?g != <urn:registry:store>) } GROUP BY ?g ORDER BY ?g',
      ),
      await store.select('SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { GRAPH ?g { ?s ?p ?b } FILTER(isBlank(?b)) }'),
    ];
    const written = await content();
    expect(written[0]!.length).to.be.above(changes);

    // The holder dies; the store says it projected nothing of these changes: the next holder writes them all again.
    a.proc.child.kill('SIGKILL');
    await a.proc.exited;
    await store.recordPosition(before);
    const b = await replica();
    // It hears the dead holder's last announcement at once; it writes once the lease has expired.
    // (Its log lines are written asynchronously.)
    for (let i = 0; i < 500 && !((await store.recordedPosition())! > before && holds(b)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(holds(b)).to.equal(true);
    expect(await answers(b)).to.deep.equal(seen);
    expect(await content()).to.deep.equal(written);
    // What it wrote again is the batches' own content (their graphs, heads, catalogue entries and full text): nothing else.
    // (Search documents are posted to their graph by the Graph Store protocol: the graph is in the path.)
    expect(
      b.proxy.writes().filter((w) => !/urn:registry:(position|heads|catalogue|text\/|search\/)|\/rev\//.test(w.update || decodeURIComponent(w.path))),
    ).to.deep.equal([]);
  });

  it("removes a permanently deleted item's triples from its project's default graph (its heads before its graphs)", async () => {
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('store-prune');
    const a = await replica();
    await put(a, '/v1/orgs/o', {});
    await put(a, '/v1/projects/o/p', {});
    await put(a, `/v1/resources/o/p/_/${id(1)}`, payload(1, { 'http://x/name': 'kept' }));
    await put(a, `/v1/resources/o/p/_/${id(2)}`, payload(2, { 'http://x/name': 'doomed' }));
    expect((await fetch(`${a.proc.url}/v1/resources/o/p/_/${id(2)}?prune=true`, { method: 'DELETE' })).status).to.equal(204);
    const query = encodeURIComponent('SELECT ?n WHERE { ?s <http://x/name> ?n }');
    const answer = await fetch(`${a.proc.url}/v1/views/o/p/graph/sparql?query=${query}`);
    expect(answer.status).to.equal(200);
    const rows = ((await answer.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings;
    expect(rows.map((r) => r.n.value)).to.deep.equal(['kept']);
  });

  it('keeps nothing of the triple store in the data directory: a replica started on an empty one answers fetches, listings and SPARQL at once', async () => {
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('store-stateless');
    const a = await replica();
    await put(a, '/v1/orgs/o', {});
    await put(a, '/v1/projects/o/p', {});
    for (let n = 1; n <= 3; n++) await put(a, `/v1/resources/o/p/_/${id(n)}`, payload(n));
    // A clean stop takes the final snapshot: what the data directory then holds is all it ever holds.
    a.proc.child.kill('SIGTERM');
    await a.proc.exited;
    const files = (readdirSync(a.dir, { recursive: true }) as string[]).map((f) => f.replaceAll('\\', '/')).sort();
    expect(files.filter((f) => f.startsWith('projection/'))).to.deep.equal(
      // The terms each replica's catalogue learns (`sort=<field name>`) are its own, like its snapshot.
      ['projection/checkpoints.json', 'projection/snapshot.json', 'projection/terms.json'].filter((f) => files.includes(f)),
    );
    expect(
      files.some((f) => /revisions|\.nq$|oxigraph|text\.sqlite/.test(f)),
      files.join(', '),
    ).to.equal(false);

    const fresh = await replica();
    expect(readdirSync(fresh.dir, { recursive: true }).filter((f) => String(f).startsWith('projection/') && String(f).includes('revisions'))).to.deep.equal([]);
    const fetched = await fetch(`${fresh.proc.url}/v1/resources/o/p/_/${id(2)}`);
    expect(fetched.status).to.equal(200);
    expect(((await fetched.json()) as Record<string, unknown>)['http://x/n']).to.equal(2);
    const listed = (await (await fetch(`${fresh.proc.url}/v1/resources/o/p?sort=${encodeURIComponent('http://x/n')}`)).json()) as { _total: number };
    expect(listed._total).to.equal(3);
    const query = encodeURIComponent('SELECT ?n WHERE { ?s <http://x/n> ?n }');
    const answer = await fetch(`${fresh.proc.url}/v1/views/o/p/graph/sparql?query=${query}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(answer.status, await answer.clone().text()).to.equal(200);
    const rows = ((await answer.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings;
    expect(rows.map((row) => Number(row.n.value)).sort()).to.deep.equal([1, 2, 3]);
  });
});
