import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from '../support/client.js';
import { OLD_FILENAME, populate, remains, SECRET } from '../support/deletedProject.js';
import { killStarted } from '../support/process.js';
import type { Proc } from '../support/process.js';
import { dropPrefix, uniquePrefix } from '../support/redis.js';
import { startReplicas } from '../support/replicas.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import type { Virtuoso } from '../support/virtuoso.js';

/** Issue 32, finding 7 on the external store: a deleted project leaves nothing in the shared store either. */
describe('project deletion (prune=true) through a replica on Virtuoso', function () {
  this.timeout(180_000);
  let virtuoso: Virtuoso;
  const prefix = uniquePrefix('deletion');
  const dir = mkdtempSync(join(tmpdir(), 'deletion-replica-'));
  let replica: Proc;
  before(async () => {
    virtuoso = await useVirtuoso();
    [replica] = (await startReplicas(prefix, [dir], storeEnv(virtuoso.server))) as [Proc];
  });
  after(async () => {
    killStarted();
    rmSync(dir, { recursive: true, force: true });
    await dropPrefix(prefix);
    await clearVirtuoso(virtuoso.server);
    await releaseVirtuoso();
  });

  /** Graphs and subjects anywhere in the store (current, heads, text, search, catalogue, revisions) that hold what the deleted project had. */
  const leftInStore = async (): Promise<string[]> => {
    const query = `SELECT DISTINCT ?g ?s WHERE { GRAPH ?g { ?s ?p ?o }
      FILTER(STR(?o) = "${SECRET}" || STR(?o) = "${OLD_FILENAME}" || CONTAINS(STR(?s), "oldview") || CONTAINS(STR(?o), "oldview")
        || CONTAINS(STR(?s), "/d/p/_/r") || CONTAINS(STR(?s), "/d/p/_/f") || CONTAINS(STR(?s), "%2Fd%2Fp%2F_%2Fr") || CONTAINS(STR(?s), "%2Fd%2Fp%2F_%2Ff")) }`;
    const r = await fetch(virtuoso.server.query, {
      method: 'POST',
      headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query }).toString(),
    });
    expect(r.status).to.equal(200);
    const rows = ((await r.json()) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
    return rows.map((row) => `${row['g']!.value} ${row['s']!.value}`);
  };

  it('removes every kind, the current, heads and text graphs, archives, the ACL and counts; the project created again shows none', async () => {
    const api = client(replica.url);
    expect((await api.put('/v1/orgs/d', {})).status).to.equal(201);
    const counted = await populate(replica.url, 'd/p');
    expect(await leftInStore()).to.not.deep.equal([]);
    expect((await api.delete('/v1/projects/d/p?rev=1&prune=true')).status).to.equal(200);
    expect((await api.put('/v1/projects/d/p', {})).status).to.equal(201);
    expect(await remains(replica.url, 'd/p', counted)).to.deep.equal([]);
    expect(await leftInStore()).to.deep.equal([]);
  });
});
