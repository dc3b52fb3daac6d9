import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetPath } from '../../src/util/assets.js';
import { freePort, killStarted, ready, start } from '../support/process.js';
import type { Proc } from '../support/process.js';

/** The environment of `npm start` with embedded defaults (CI exports REDIS_URL for the Redis tests). */
const { REDIS_URL: _redis, REDIS_PREFIX: _prefix, CONFIG_FILE: _config, ...embedded } = process.env;

const put = (url: string, body: unknown) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Start-up recovery from damaged files, in separate processes. */
describe('recovery says what it did (separate processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let port: number;
  const env = () => ({ PORT: String(port), DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}` });
  const journal = () => join(dataDir, 'journal', 'events.log');
  const resource = (base: string, name: string) => `${base}/v1/resources/o/p/_/${name}`;

  /** A registry with an org, a project and resources r1..rn, stopped with SIGTERM (which takes a snapshot). */
  const seeded = async (n: number): Promise<void> => {
    const server = start(env());
    await ready(server);
    expect((await put(`${server.url}/v1/orgs/o`, {})).status).to.equal(201);
    expect((await put(`${server.url}/v1/projects/o/p`, {})).status).to.equal(201);
    for (let i = 1; i <= n; i++) expect((await put(resource(server.url, `r${i}`), { 'http://x/n': i })).status).to.equal(201);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  };
  /** Byte offset where line `n` (1-based) of the journal starts. */
  const lineStart = (n: number): number => {
    const text = readFileSync(journal());
    let offset = 0;
    for (let i = 1; i < n; i++) offset = text.indexOf(0x0a, offset) + 1;
    return offset;
  };
  const status = async (p: Proc, name: string) => (await fetch(resource(p.url, name))).status;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-recovery-'));
    port = await freePort();
  });
  afterEach(() => {
    killStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('discards a snapshot ahead of a cut journal, replays it, and later writes are shown', async () => {
    await seeded(3);
    truncateSync(journal(), lineStart(9)); // org, project, its default storage, resolver and two views, r1, r2 remain
    const server = start(env());
    await ready(server);
    expect(server.output()).to.include('snapshot ignored: it records events up to 9 but the log ends at 8');
    expect(await status(server, 'r2')).to.equal(200);
    expect(await status(server, 'r3')).to.equal(404);
    expect((await put(resource(server.url, 'r4'), { 'http://x/n': 4 })).status).to.equal(201);
    expect(await status(server, 'r4')).to.equal(200);
  });

  it('falls back to replaying the log when the snapshot or the revision file cannot be read', async () => {
    await seeded(2);
    writeFileSync(join(dataDir, 'projection', 'snapshot.json'), '{"version":1,"seq":');
    let server = start(env());
    await ready(server);
    expect(server.output()).to.include('snapshot').and.include('ignored');
    expect(await status(server, 'r2')).to.equal(200);
    server.child.kill('SIGTERM');
    await server.exited;
    writeFileSync(join(dataDir, 'projection', 'revisions.nq'), '<not n-quads\n'.repeat(10));
    server = start(env());
    await ready(server);
    expect(await status(server, 'r1')).to.equal(200);
    expect(await status(server, 'r2')).to.equal(200);
  });

  it('cuts an unfinished or damaged tail and logs the byte range', async () => {
    await seeded(2);
    const before = readFileSync(journal()).length;
    writeFileSync(journal(), Buffer.concat([readFileSync(journal()), Buffer.from('7\t"resources/o/p/x"\t1\t{"type":"Resour')]));
    let server = start(env());
    await ready(server);
    expect(server.output()).to.include(`bytes ${before}-`).and.include('cut off');
    expect(await status(server, 'r2')).to.equal(200);
    server.child.kill('SIGTERM');
    await server.exited;
    const text = readFileSync(journal());
    text[text.length - 20] ^= 0x01; // the last record's body: its checksum no longer matches
    writeFileSync(journal(), text);
    server = start(env());
    await ready(server);
    expect(server.output()).to.include('damaged').and.include('cut off');
    expect(await status(server, 'r1')).to.equal(200);
  });

  it('refuses to start on damage followed by sound records, names file, offset and event, and the repair command quarantines it', async () => {
    await seeded(3);
    const damagedAt = lineStart(8); // r2 (after org, project, its default storage, resolver and two views, r1)
    const text = readFileSync(journal());
    text[damagedAt + 30] ^= 0x01;
    writeFileSync(journal(), text);
    const refused = start(env());
    expect(await refused.exited).to.equal(2);
    expect(refused.output()).to.include(`${journal()} is damaged at byte ${damagedAt}`).and.include('after event 7').and.include('npm run journal -- repair');

    const repair = spawnSync(process.execPath, [assetPath('dist', 'src', 'tools', 'journal.js'), 'repair'], {
      env: { ...embedded, ...env() },
      encoding: 'utf8',
    });
    expect(repair.status, repair.stderr).to.equal(0);
    expect(repair.stdout).to.include(`bytes ${damagedAt}-`).and.include('quarantine-');

    const server = start(env());
    await ready(server);
    expect(await status(server, 'r1')).to.equal(200);
    expect(await status(server, 'r2')).to.equal(404);
    expect(await status(server, 'r3')).to.equal(200);
    expect((await put(resource(server.url, 'r5'), { 'http://x/n': 5 })).status).to.equal(201);
  });
});
