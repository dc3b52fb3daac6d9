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
    const { allowedEndpoints, connectTimeoutMillis, transferTimeoutMillis } = loadConfig({}).storages!;
    expect(allowedEndpoints).to.deep.equal({ BlobStorage: [], RemoteDiskStorage: [] });
    expect([connectTimeoutMillis, transferTimeoutMillis]).to.deep.equal([5_000, 3_600_000]);
  });

  it('reads the allowed endpoints of the remote types and the bounds of requests to storage services', () => {
    const config = withFile({
      plugins: {
        storage: {
          storages: {
            blob: { 'allowed-endpoints': ['https://*.amazonaws.com', 'http://10.0.0.7:9000'] },
            'remote-disk': { 'allowed-endpoints': 'http://[fd00::7]:8080, https://files.example.org' },
            'connect-timeout-millis': 1500,
            'transfer-timeout-millis': 600000,
          },
        },
      },
    }).storages!;
    expect(config.allowedEndpoints).to.deep.equal({
      BlobStorage: ['https://*.amazonaws.com', 'http://10.0.0.7:9000'],
      RemoteDiskStorage: ['http://[fd00::7]:8080', 'https://files.example.org'],
    });
    expect([config.connectTimeoutMillis, config.transferTimeoutMillis]).to.deep.equal([1500, 600000]);
    expect(() => withFile({ plugins: { storage: { storages: { blob: { 'allowed-endpoints': ['https://x.org/path'] } } } } })).to.throw(
      /blob\.allowed-endpoints/,
    );
    expect(() => withFile({ plugins: { storage: { storages: { 'connect-timeout-millis': 'soon' } } } })).to.throw(/connect-timeout-millis/);
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
