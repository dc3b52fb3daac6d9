import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedViewGraphOf, VIEW_LEGACY_SWEPT, VIEW_REGISTRY, viewGraphPartOf } from '../../src/store/graphNames.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../support/redis.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import type { Virtuoso } from '../support/virtuoso.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
const EX = 'http://x/';
const P = 'o/p';

const send = (url: string, method: string, body?: unknown) =>
  fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const put = async (url: string, body: unknown, status: number) => {
  const r = await send(url, 'PUT', body);
  expect(r.status, await r.clone().text()).to.equal(status);
};
const resource = (p: Proc, id: string, type: string, n: number) =>
  put(`${p.url}/v1/resources/${P}/_/${encodeURIComponent(`${EX}${id}`)}`, { '@id': `${EX}${id}`, '@type': `${EX}${type}`, [`${EX}n`]: n }, 201);

/** The values of `x:n` a view's query answers on a replica. */
const answers = async (p: Proc, view: string): Promise<number[]> => {
  const query = encodeURIComponent(`SELECT ?n WHERE { ?s <${EX}n> ?n }`);
  const r = await fetch(`${p.url}/v1/views/${P}/${view}/sparql?query=${query}`, { headers: { accept: 'application/sparql-results+json' } });
  expect(r.status, await r.clone().text()).to.equal(200);
  const body = (await r.json()) as { results: { bindings: { n: { value: string } }[] } };
  return body.results.bindings.map((b) => Number(b.n.value)).sort((x, y) => x - y);
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const graphOf = (id: string, indexingRev: number) => sharedViewGraphOf(P, `${NXV}${id}`, indexingRev);

describe('SPARQL views on the external store: one graph per view, written by the lease holder (two processes, one Redis, one Virtuoso)', function () {
  this.timeout(180_000);
  let virtuoso: Virtuoso;
  let prefix: string;
  const dirs: string[] = [];
  before(async () => void (virtuoso = await useVirtuoso()));
  after(async () => {
    killStarted();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (prefix) await dropPrefix(prefix);
    await clearVirtuoso(virtuoso.server);
    await releaseVirtuoso();
  });

  const store = async (query: string): Promise<Record<string, { value: string }>[]> => {
    const r = await fetch(virtuoso.server.query, {
      method: 'POST',
      headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query }).toString(),
    });
    expect(r.status).to.equal(200);
    return ((await r.json()) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
  };
  const update = async (text: string) => {
    const r = await fetch(virtuoso.server.update!, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: text });
    expect(r.status, await r.text()).to.equal(200);
  };
  /** The views' graphs the store holds, whatever their part (heads, metadata), by the view graph they belong to. */
  const viewGraphs = async (): Promise<string[]> => {
    const rows = await store(`SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "urn:registry:view/")) }`);
    return [...new Set(rows.map((r) => viewGraphPartOf(r['g']!.value)!))].sort();
  };
  const registered = async (): Promise<string[]> =>
    (await store(`SELECT ?g ?s WHERE { GRAPH <${VIEW_REGISTRY}> { ?g <urn:registry:viewBuild> ?s } }`)).map((r) => `${r['g']!.value} ${r['s']!.value}`).sort();
  const until = async (what: () => Promise<boolean>) => {
    for (let i = 0; i < 300 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
  };
  const sameAs = (wanted: string[]) => async () => JSON.stringify(await viewGraphs()) === JSON.stringify([...wanted].sort());

  const replica = async (): Promise<Proc> => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'registry-viewgraphs-'));
    dirs.push(dir);
    const p = start({
      PORT: String(port),
      BASE_URL: 'http://registry.test',
      DATA_DIR: dir,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      STORAGE_PASSWORD: 'shared',
      ...storeEnv(virtuoso.server),
      STORE_LEASE_MILLIS: '3000',
    });
    await ready(p);
    return p;
  };
  const holds = (p: Proc) => {
    const out = p.output();
    return out.lastIndexOf('store projection: this replica holds the lease') > out.lastIndexOf('store projection: the lease was lost');
  };

  it('keeps one graph per view for both replicas, answers alike on both, drops an updated view’s former graph and a deprecated view’s; a holder killed mid-build leaves nothing behind', async () => {
    await clearVirtuoso(virtuoso.server);
    prefix = uniquePrefix('view-graphs');
    const a = await replica();
    const b = await replica();
    await put(`${a.url}/v1/orgs/o`, {}, 201);
    await put(`${b.url}/v1/projects/${P}`, {}, 201);
    for (let i = 1; i <= 6; i++) await resource(i % 2 ? a : b, `r${i}`, i <= 4 ? 'Cell' : 'Other', i);
    await put(`${a.url}/v1/views/${P}/nxv:cells`, { '@type': 'SparqlView', resourceTypes: [`${EX}Cell`] }, 201);
    await put(`${b.url}/v1/views/${P}/nxv:all`, { '@type': 'SparqlView', includeMetadata: true }, 201);

    // Both replicas answer each view the same, from one graph per view in the store.
    for (const p of [a, b]) {
      expect(await answers(p, 'nxv:cells')).to.deep.equal([1, 2, 3, 4]);
      expect(await answers(p, 'nxv:all')).to.deep.equal(range(1, 6));
    }
    expect(await viewGraphs()).to.deep.equal([graphOf('all', 1), graphOf('cells', 1)].sort());
    expect(await registered()).to.deep.equal([`${graphOf('all', 1)} complete`, `${graphOf('cells', 1)} complete`].sort());
    // Kept as resources change, written once whichever replica takes the write.
    await resource(b, 'r7', 'Cell', 7);
    expect(await answers(a, 'nxv:cells')).to.deep.equal([1, 2, 3, 4, 7]);
    expect(await answers(b, 'nxv:all')).to.deep.equal(range(1, 7));

    // Updated to another selection: its new graph only.
    await put(`${b.url}/v1/views/${P}/nxv:cells?rev=1`, { '@type': 'SparqlView', resourceTypes: [`${EX}Other`] }, 200);
    expect(await answers(a, 'nxv:cells')).to.deep.equal([5, 6]);
    expect(await answers(b, 'nxv:cells')).to.deep.equal([5, 6]);
    await until(sameAs([graphOf('all', 1), graphOf('cells', 2)]));
    expect(await viewGraphs()).to.deep.equal([graphOf('all', 1), graphOf('cells', 2)].sort());

    // Deprecated: its graph is gone.
    expect((await send(`${a.url}/v1/views/${P}/nxv:all?rev=1`, 'DELETE')).status).to.equal(200);
    await until(sameAs([graphOf('cells', 2)]));
    expect(await viewGraphs()).to.deep.equal([graphOf('cells', 2)]);

    // What replicas building their own graphs left before this change, in a store not swept yet.
    const legacy = `urn:registry:view/${P}/${encodeURIComponent(`${NXV}cells`)}/1a2b3c4d.1`;
    await update(
      `INSERT DATA { GRAPH <${legacy}> { <${EX}r1> <${EX}n> 1 } GRAPH <${legacy}/heads> { <urn:registry:resources/${P}/r1> <urn:registry:head> <${legacy}/meta/x> } ` +
        `GRAPH <${legacy}/meta/x> { <${EX}r1> <${EX}m> 1 } } ;\nDELETE DATA { GRAPH <${VIEW_REGISTRY}> { <${VIEW_REGISTRY}> <${VIEW_LEGACY_SWEPT}> true } }`,
    );
    // And what a holder dying mid-build leaves: a graph recorded as building, holding what it was not to hold.
    const cells = graphOf('cells', 2);
    await update(
      `INSERT DATA { GRAPH <${cells}> { <${EX}junk> <${EX}n> 999 } } ;\n` +
        `DELETE DATA { GRAPH <${VIEW_REGISTRY}> { <${cells}> <urn:registry:viewBuild> "complete" } } ;\n` +
        `INSERT DATA { GRAPH <${VIEW_REGISTRY}> { <${cells}> <urn:registry:viewBuild> "building" } }`,
    );
    // A view of many members, and its holder killed as it builds its graph.
    for (let i = 100; i < 160; i++) await resource(a, `m${i}`, 'Many', i);
    for (let i = 0; i < 100 && !holds(a) && !holds(b); i++) await new Promise((r) => setTimeout(r, 20));
    const [holder, other] = holds(a) ? [a, b] : [b, a];
    await put(`${holder.url}/v1/views/${P}/nxv:many?indexing=async`, { '@type': 'SparqlView', resourceTypes: [`${EX}Many`], includeMetadata: true }, 201);
    holder.child.kill('SIGKILL');
    await holder.exited;
    // The other takes the lease over and sweeps: the view's graph whole, the former replicas' gone.
    expect(await answers(other, 'nxv:many')).to.deep.equal(range(100, 159));
    await until(sameAs([graphOf('cells', 2), graphOf('many', 1)]));
    expect(await viewGraphs()).to.deep.equal([graphOf('cells', 2), graphOf('many', 1)].sort());
    const complete = [`${graphOf('cells', 2)} complete`, `${graphOf('many', 1)} complete`].sort();
    await until(async () => JSON.stringify(await registered()) === JSON.stringify(complete));
    expect(await registered()).to.deep.equal(complete);
    expect(await answers(other, 'nxv:cells')).to.deep.equal([5, 6]);
    expect(holds(other)).to.equal(true);
    // A replica started afterwards answers from the same graphs, building none.
    const c = await replica();
    expect(await answers(c, 'nxv:many')).to.deep.equal(range(100, 159));
    expect(await answers(c, 'nxv:cells')).to.deep.equal([5, 6]);
    expect(await viewGraphs()).to.deep.equal([graphOf('cells', 2), graphOf('many', 1)].sort());
  });
});
