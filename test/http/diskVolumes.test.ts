import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { multipart, storagesConfig, upload } from '../support/files.js';
import { client } from '../support/client.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/** Waits for a condition the server reaches on its own (no time asserted: the test's own timeout bounds it). */
const eventually = async (holds: () => boolean) => {
  while (!holds()) await sleep(20);
};

describe('disk volumes, capacity and leftovers (issue 19)', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  // The allowed folder, and one outside it a link could point to.
  const allowed = mkdtempSync(join(tmpdir(), 'registry-allowed-'));
  const outside = mkdtempSync(join(tmpdir(), 'registry-outside-'));
  const { config, volume } = storagesConfig();

  before(async () => {
    server = await startServer({ storages: { ...config, allowedVolumes: [allowed, volume] } });
    api = client(server.url);
    await api.put('/v1/orgs/org', {});
    await api.put('/v1/projects/org/proj', {});
  });
  after(() => server.stop(true));

  it('refuses a volume that is a link out of the allowed folders (StorageNotAccessible)', async () => {
    symlinkSync(outside, join(allowed, 'link'));
    const r = await api.put('/v1/storages/org/proj/linked', { '@type': 'DiskStorage', default: false, volume: join(allowed, 'link') });
    expect([r.status, r.body['@type']]).to.deep.equal([400, 'StorageNotAccessible']);
    expect(r.body.details).to.include('not one of the allowed volumes');
  });

  it('resolves the volume again at every write: a folder replaced by a link afterwards writes nothing outside', async () => {
    const real = join(allowed, 'real');
    mkdirSync(real);
    expect((await api.put('/v1/storages/org/proj/real', { '@type': 'DiskStorage', default: false, volume: real })).status).to.equal(201);
    expect((await upload(`${server.url}/v1/files/org/proj/ok?storage=real`, 'PUT', 'inside')).status).to.equal(201);
    renameSync(real, join(allowed, 'was-real'));
    symlinkSync(outside, real);
    const r = await upload(`${server.url}/v1/files/org/proj/escaped?storage=real`, 'PUT', 'would land outside');
    expect([r.status, r.body['@type']]).to.deep.equal([400, 'StorageNotAccessible']);
    expect(filesUnder(outside)).to.deep.equal([]);
  });

  it('checks every file path against the resolved volume: a project folder that is a link writes nothing outside', async () => {
    const vol = join(allowed, 'vol2');
    mkdirSync(join(vol, 'org'), { recursive: true });
    symlinkSync(outside, join(vol, 'org', 'proj'));
    expect((await api.put('/v1/storages/org/proj/vol2', { '@type': 'DiskStorage', default: false, volume: vol })).status).to.equal(201);
    const r = await upload(`${server.url}/v1/files/org/proj/escaped2?storage=vol2`, 'PUT', 'would land outside');
    expect([r.status, r.body['@type']]).to.deep.equal([400, 'StorageNotAccessible']);
    expect(filesUnder(outside)).to.deep.equal([]);
  });

  it('reserves capacity before the bytes stream: six concurrent 59,000-byte uploads on 100,000 bytes give one 201 at most', async () => {
    const vol = join(allowed, 'capacity');
    mkdirSync(vol);
    const created = await api.put('/v1/storages/org/proj/cap', { '@type': 'DiskStorage', default: false, volume: vol, capacity: 100_000, maxFileSize: 60_000 });
    expect(created.status, created.text).to.equal(201);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upload(`${server.url}/v1/files/org/proj/cap${i}?storage=cap`, 'PUT', Buffer.alloc(59_000, i))),
    );
    const created201 = answers.filter((a) => a.status === 201);
    expect(created201.length).to.be.at.most(1);
    for (const a of answers.filter((x) => x.status !== 201)) expect([a.status, a.body['@type']]).to.deep.equal([413, 'FileTooLarge']);
    const stats = await api.get('/v1/storages/org/proj/cap/statistics');
    expect(stats.body.spaceUsed).to.be.at.most(100_000);
    // What failed was given back: a small file still fits next to the one written.
    expect((await upload(`${server.url}/v1/files/org/proj/capsmall?storage=cap`, 'PUT', Buffer.alloc(30_000))).status).to.equal(201);
    const after = await api.get('/v1/storages/org/proj/cap/statistics');
    expect(after.body.spaceUsed).to.be.at.most(100_000);
    expect(filesUnder(join(vol, 'org')).filter((f) => f.endsWith('.part'))).to.deep.equal([]);
  });

  it('leaves nothing of an upload whose socket is destroyed midway (300 KB of 500 KB)', async () => {
    const before = (await api.get('/v1/storages/org/proj/defaultStorage/statistics')).body;
    const { body, type } = multipart([{ name: 'file', filename: 'cut.bin', data: Buffer.alloc(500_000, 7) }]);
    const url = new URL(`${server.url}/v1/files/org/proj/cutoff`);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((r) => socket.once('connect', r));
    socket.write(`PUT ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body.subarray(0, 300_000));
    const parts = () => (existsSync(join(volume, 'org')) ? filesUnder(join(volume, 'org')).filter((f) => f.endsWith('.part')) : []);
    // The bytes are being written...
    await eventually(() => parts().some((p) => statSync(p).size > 0));
    socket.destroy();
    // ...and once the socket is gone, nothing is left of them.
    await eventually(() => parts().length === 0);
    expect((await api.get('/v1/files/org/proj/cutoff', { accept: 'application/ld+json' })).status).to.equal(404);
    expect((await api.get('/v1/storages/org/proj/defaultStorage/statistics')).body).to.deep.include({ files: before.files, spaceUsed: before.spaceUsed });
  });
});

describe('start-up sweep of upload leftovers (issue 19)', () => {
  it('removes temporary files older than the request timeout, keeps younger ones and everything else', async () => {
    const { config, volume } = storagesConfig();
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-sweep-'));
    let server = await startServer({ storages: config, http: { requestTimeoutMillis: 60_000 } }, dataDir);
    const api = client(server.url);
    await api.put('/v1/orgs/o', {});
    await api.put('/v1/projects/o/p', {});
    expect((await upload(`${server.url}/v1/files/o/p/kept`, 'PUT', 'a file')).status).to.equal(201);
    await server.stop();
    const folder = join(volume, 'o', 'p', 'ab', 'cd');
    mkdirSync(folder, { recursive: true });
    const stale = join(folder, '0b8e1d6a-3c55-4a0f-9d0e-7e3f1b2c4d5e.5f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b.part');
    const young = join(folder, '1b8e1d6a-3c55-4a0f-9d0e-7e3f1b2c4d5e.6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b.part');
    const foreign = join(folder, 'notes.part');
    for (const f of [stale, young, foreign]) writeFileSync(f, 'partial');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(stale, old, old);
    utimesSync(foreign, old, old);
    const before = filesUnder(join(volume, 'o')).length;
    server = await startServer({ storages: config, http: { requestTimeoutMillis: 60_000 } }, dataDir);
    try {
      expect(existsSync(stale)).to.equal(false);
      expect(existsSync(young)).to.equal(true);
      expect(existsSync(foreign)).to.equal(true);
      expect(filesUnder(join(volume, 'o')).length).to.equal(before - 1);
      expect(await (await fetch(`${server.url}/v1/files/o/p/kept`)).text()).to.equal('a file');
    } finally {
      await server.stop(true);
    }
  });
});
