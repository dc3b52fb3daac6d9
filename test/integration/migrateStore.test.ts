import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../../src/util/assets.js';
import { progressBar } from '../../src/tools/progressBar.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import { clearVirtuoso, releaseVirtuoso, storeEnv, useVirtuoso } from '../support/virtuoso.js';
import type { Virtuoso } from '../support/virtuoso.js';

const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The embedded defaults (CI exports REDIS_URL for the Redis tests): the deployment moved here runs on its journal. */
const { REDIS_URL: _redis, REDIS_PREFIX: _prefix, CONFIG_FILE: _config, ...embedded } = process.env;

const migrate = (env: Record<string, string>): Promise<{ code: number | null; out: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [assetPath('dist', 'src', 'tools', 'migrateStore.js')], {
      env: { ...embedded, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });

/** Values of `http://x/n` in the revision graphs the store holds (asked of Virtuoso itself). */
const inStore = async (virtuoso: Virtuoso): Promise<number[]> => {
  const query = 'SELECT DISTINCT ?n WHERE { GRAPH ?g { ?s <http://x/n> ?n } FILTER(STRSTARTS(STR(?g), "urn:registry:resources/")) }';
  const answer = await fetch(virtuoso.server.query, {
    method: 'POST',
    headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ query }).toString(),
  });
  const body = (await answer.json()) as { results: { bindings: { n: { value: string } }[] } };
  return body.results.bindings.map((b) => Number(b.n.value)).sort((x, y) => x - y);
};

describe('progress bar of the store migration', () => {
  it('rewrites one line on a terminal and writes a line per tenth elsewhere', () => {
    const tty: string[] = [];
    const onTty = progressBar(true, (t) => tty.push(t), 10);
    onTty.show(5, 10);
    onTty.show(10, 10);
    onTty.end(10);
    expect(tty[0]).to.match(/^\r\[#####\.\.\.\.\.\] 50% 5\/10 events/);
    expect(tty[1]).to.match(/^\r\[##########\] 100% 10\/10 events/);
    expect(tty[2]).to.match(/^\nstore migration: done, 10 events/);
    const plain: string[] = [];
    const elsewhere = progressBar(false, (t) => plain.push(t));
    for (let i = 0; i <= 20; i++) elsewhere.show(i, 20);
    expect(plain).to.have.length(11);
    expect(plain[0]).to.equal('store migration: 0% (0/20 events)\n');
    expect(plain[10]).to.equal('store migration: 100% (20/20 events)\n');
    expect(plain.every((line) => !line.includes('\r'))).to.equal(true);
  });
});

describe('moving an embedded deployment onto the external store (separate processes, Virtuoso)', function () {
  this.timeout(120_000);
  let virtuoso: Virtuoso;
  let dataDir: string;
  before(async () => void (virtuoso = await useVirtuoso()));
  after(async () => {
    await clearVirtuoso(virtuoso.server);
    await releaseVirtuoso();
  });
  afterEach(() => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the log into the store with progress; the registry then serves from it; run again, it has nothing to redo', async () => {
    await clearVirtuoso(virtuoso.server);
    dataDir = mkdtempSync(join(tmpdir(), 'registry-migrate-'));
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` };
    let server = start(env);
    await ready(server);
    expect((await put(`${server.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/projects/o/p`, {})).status).to.equal(201);
    for (let i = 1; i <= 4; i++) expect((await put(`${server.url}/v1/resources/o/p/_/r${i}`, { 'http://x/n': i })).status).to.equal(201);
    expect((await put(`${server.url}/v1/resources/o/p/_/r4?rev=1`, { 'http://x/n': 40 })).status).to.equal(200);
    server.child.kill('SIGTERM');
    await server.exited;
    expect(await inStore(virtuoso)).to.deep.equal([]);

    const external = {
      ...storeEnv(virtuoso.server),
    };
    const migrated = await migrate({ ...env, ...external });
    expect(migrated.code, migrated.out).to.equal(0);
    expect(migrated.out).to.include('store migration: 100%');
    expect(migrated.out).to.match(/store migration: done, \d+ events projected into the external store/);
    expect(await inStore(virtuoso)).to.deep.equal([1, 2, 3, 4, 40]);

    server = start({ ...env, ...external });
    await ready(server);
    const query = encodeURIComponent('SELECT ?n WHERE { ?s <http://x/n> ?n }');
    const answer = await fetch(`${server.url}/v1/views/o/p/graph/sparql?query=${query}`, { headers: { accept: 'application/sparql-results+json' } });
    const body = (await answer.json()) as { results: { bindings: { n: { value: string } }[] } };
    expect(body.results.bindings.map((b) => Number(b.n.value)).sort((x, y) => x - y)).to.deep.equal([1, 2, 3, 40]);
    server.child.kill('SIGTERM');
    await server.exited;

    const again = await migrate({ ...env, ...external });
    expect(again.code, again.out).to.equal(0);
    expect(await inStore(virtuoso)).to.deep.equal([1, 2, 3, 4, 40]);
  });

  it('refuses to run without an external store configured', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-migrate-'));
    const refused = await migrate({ DATA_DIR: dataDir });
    expect(refused.code).to.equal(1);
    expect(refused.out).to.include('SPARQL_ENDPOINT');
  });
});
