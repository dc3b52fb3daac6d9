import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../support/server.js';
import { storagesConfig, upload } from '../support/files.js';
import { client } from '../support/client.js';
import { startRemoteDisk } from '../support/objectStores.js';

const everyFile = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? everyFile(join(dir, name)) : [join(dir, name)]));

describe('storages and files across a restart; secrets at rest', () => {
  it('keeps files, statistics and sealed secrets (a generated key in the data directory), never writing a secret in clear', async () => {
    const token = 'a-remote-token-never-written-in-clear';
    const remote = await startRemoteDisk(token, ['folder-one']);
    const { config } = storagesConfig({
      'plugins.storage.storages.remote-disk.enabled': 'true',
      'plugins.storage.storages.remote-disk.default-endpoint': remote.endpoint,
    });
    const { password: _none, ...withoutPassword } = config;
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-files-restart-'));
    try {
      let server = await startServer({ storages: withoutPassword }, dataDir);
      let api = client(server.url);
      await api.put('/v1/orgs/o', {});
      await api.put('/v1/projects/o/p', {});
      expect(
        (await api.put('/v1/storages/o/p/remote', { '@type': 'RemoteDiskStorage', default: false, folder: 'folder-one', credentials: token })).status,
      ).to.equal(201);
      expect((await upload(`${server.url}/v1/files/o/p/f1`, 'PUT', 'on disk')).status).to.equal(201);
      expect((await upload(`${server.url}/v1/files/o/p/f2?storage=remote`, 'PUT', 'remote')).status).to.equal(201);
      await server.stop();
      for (const file of everyFile(dataDir)) expect(readFileSync(file, 'utf8'), file).not.to.include(token);

      server = await startServer({ storages: withoutPassword }, dataDir);
      api = client(server.url);
      expect(await (await fetch(`${server.url}/v1/files/o/p/f1`)).text()).to.equal('on disk');
      // The secret is opened with the key kept in the data directory.
      expect(await (await fetch(`${server.url}/v1/files/o/p/f2`)).text()).to.equal('remote');
      expect((await api.get('/v1/storages/o/p/defaultStorage/statistics')).body).to.include({ files: 1, spaceUsed: 7 });
      expect((await api.get('/v1/files/o/p')).body._total).to.equal(2);
      expect((await api.get('/v1/storages/o/p/remote')).text).not.to.include(token);
      await server.stop();
    } finally {
      await remote.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
