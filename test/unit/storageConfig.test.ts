import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/Config.js';

describe('storage configuration (plugins.storage.storages.* in the config file)', () => {
  const withFile = (tree: unknown) => {
    const path = join(mkdtempSync(join(tmpdir(), 'registry-config-')), 'config.json');
    writeFileSync(path, JSON.stringify(tree));
    return loadConfig({ CONFIG_FILE: path });
  };

  it('has the spec defaults without a file', () => {
    const { defaults, allowedVolumes } = loadConfig({}).storages!;
    expect(defaults.DiskStorage).to.include({
      enabled: true,
      volume: '/tmp',
      readPermission: 'resources/read',
      writePermission: 'files/write',
      maxFileSize: 10737418240,
    });
    expect([defaults.BlobStorage.enabled, defaults.RemoteDiskStorage.enabled]).to.deep.equal([false, false]);
    expect(allowedVolumes).to.deep.equal(['/tmp']);
  });

  it('reads nested keys, JSON numbers and booleans, and refuses bad values naming the key', () => {
    const config = withFile({
      plugins: {
        storage: {
          storages: {
            disk: { 'default-volume': '/data', 'default-capacity': 5000, 'allowed-volumes': ['/data', '/more'] },
            blob: { enabled: true, 'default-bucket': 'files-bucket', 'default-max-file-size': 1000 },
            password: 'pw',
          },
        },
      },
    }).storages!;
    expect(config.defaults.DiskStorage).to.include({ volume: '/data', capacity: 5000 });
    expect(config.defaults.BlobStorage).to.include({ enabled: true, bucket: 'files-bucket', maxFileSize: 1000 });
    expect(config.allowedVolumes).to.deep.equal(['/data', '/more']);
    expect(config.password).to.equal('pw');
    expect(() => withFile({ plugins: { storage: { storages: { blob: { enabled: 'yes' } } } } })).to.throw(/plugins\.storage\.storages\.blob\.enabled/);
    expect(() => withFile({ plugins: { storage: { storages: { disk: { 'default-max-file-size': -1 } } } } })).to.throw(/default-max-file-size/);
  });
});
