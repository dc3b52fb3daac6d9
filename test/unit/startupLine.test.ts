import { expect } from 'chai';
import { startupLine } from '../../src/config/startupLine.js';
import type { Config } from '../../src/config/Config.js';
import { storageConfig } from '../../src/config/storageConfig.js';

const config = (extra: Partial<Config>, file: Record<string, string> = {}): Config => ({
  port: 8080,
  baseUrl: 'http://localhost:8080',
  dataDir: '/srv/registry',
  maxPayloadBytes: 262144,
  maxStoreQuads: 8_000_000,
  snapshotEvents: 20_000,
  snapshotMillis: 60_000,
  storages: storageConfig(
    (key) => file[key],
    (name) => new Error(name),
  ),
  ...extra,
});

describe('the start-up line', () => {
  it('names a locked-down service, Redis without its credentials, and the enabled storage types', () => {
    const line = startupLine(
      config(
        { redisUrl: 'redis://user:secret@redis.example:6379/0', redisPrefix: 'reg', textIndex: false },
        {
          'plugins.storage.storages.blob.enabled': 'true',
          'plugins.storage.storages.blob.default-endpoint': 'http://s3.example:9000',
          'plugins.storage.storages.remote-disk.enabled': 'true',
          'plugins.storage.storages.disk.default-volume': '/data/files',
        },
      ),
      '0.0.0.0',
      false,
    );
    expect(line).to.include('access by ACLs');
    expect(line).to.not.include('anonymous callers may do everything');
    expect(line).to.include("event log: Redis Streams at redis://redis.example:6379/0 (key prefix 'reg')");
    expect(line).to.not.include('secret');
    expect(line).to.include('store: embedded Oxigraph (/srv/registry/projection), no text index');
    expect(line).to.include('storages: disk (default volume /data/files), BlobStorage (S3 at http://s3.example:9000), RemoteDiskStorage');
  });

  it('names the external store by its query endpoint without credentials, with the text index on it', () => {
    const line = startupLine(
      config({
        sparqlStore: { query: 'http://dba:secret@virtuoso:8890/sparql', update: 'http://virtuoso:8890/sparql', gsp: 'http://virtuoso:8890/sparql-graph-crud' },
      }),
      '0.0.0.0',
      true,
    );
    expect(line).to.include('store: external SPARQL 1.1 server at http://virtuoso:8890/sparql, text index on it;');
    expect(line).to.not.include('secret');
    expect(line).to.not.include('embedded Oxigraph');
  });
});
