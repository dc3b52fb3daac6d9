import { expect } from 'chai';
import { Rejection } from '../../src/kernel/Rejection.js';
import { evaluateStorage, nextStorage } from '../../src/modules/files/storages/Storage.js';
import type { StorageEvent, StorageFields, StorageState } from '../../src/modules/files/storages/Storage.js';
import { storageFields, withoutSecrets } from '../../src/modules/files/storages/storagePayload.js';
import type { StorageDefaults } from '../../src/modules/files/storages/storagePayload.js';
import { evaluateFile, filePath, nextFile } from '../../src/modules/files/files/File.js';
import type { FileEvent, FileState, FileValue } from '../../src/modules/files/files/File.js';
import { contentDisposition } from '../../src/http/contentDisposition.js';
import { byteRange } from '../../src/modules/files/routes/byteRange.js';
import { AesSecretBox } from '../../src/modules/files/AesSecretBox.js';

const t = { id: 'urn:s', project: 'o/p', instant: '2024-01-01T00:00:00.000Z', subject: 'anonymous' };
const fields: StorageFields = {
  type: 'DiskStorage',
  default: true,
  readPermission: 'resources/read',
  writePermission: 'files/write',
  maxFileSize: 10,
  volume: '/v',
};
const type = (d: unknown) => (d instanceof Rejection ? d.type : (d as { type: string }).type);
const defaults: StorageDefaults = {
  DiskStorage: { enabled: true, readPermission: 'resources/read', writePermission: 'files/write', maxFileSize: 100, volume: '/tmp' },
  BlobStorage: { enabled: false, readPermission: 'resources/read', writePermission: 'files/write', maxFileSize: 100 },
  RemoteDiskStorage: { enabled: false, readPermission: 'resources/read', writePermission: 'files/write', maxFileSize: 100 },
};

describe('storage state machine', () => {
  const created = nextStorage(undefined, evaluateStorage(undefined, { type: 'Create', ...t, fields, source: {} }) as StorageEvent)!;

  it('creates, updates, tags and deprecates, keeping every revision', () => {
    expect(created).to.include({ rev: 1, deprecated: false });
    const updated = nextStorage(
      created,
      evaluateStorage(created, { type: 'Update', ...t, rev: 1, fields: { ...fields, maxFileSize: 5 }, source: {} }) as StorageEvent,
    )!;
    const tagged = nextStorage(updated, evaluateStorage(updated, { type: 'Tag', ...t, rev: 2, tag: 'v', targetRev: 1 }) as StorageEvent)!;
    const deprecated = nextStorage(tagged, evaluateStorage(tagged, { type: 'Deprecate', ...t, rev: 3 }) as StorageEvent)!;
    expect(deprecated).to.include({ rev: 4, deprecated: true });
    expect(deprecated.value.fields.default).to.equal(false);
    expect(deprecated.tags).to.deep.equal({ v: 1 });
    expect(deprecated.history.map((h) => h.value.fields.maxFileSize)).to.deep.equal([10, 5, 5, 5]);
  });

  it('rejects in Delta order: revision, deprecation, type', () => {
    const deprecated = nextStorage(created, evaluateStorage(created, { type: 'Deprecate', ...t, rev: 1 }) as StorageEvent) as StorageState;
    const blob: StorageFields = { ...fields, type: 'BlobStorage' };
    expect(type(evaluateStorage(created, { type: 'Create', ...t, fields, source: {} }))).to.equal('ResourceAlreadyExists');
    expect(type(evaluateStorage(undefined, { type: 'Deprecate', ...t, rev: 1 }))).to.equal('ResourceNotFound');
    expect(type(evaluateStorage(deprecated, { type: 'Update', ...t, rev: 1, fields: blob, source: {} }))).to.equal('IncorrectRev');
    expect(type(evaluateStorage(deprecated, { type: 'Update', ...t, rev: 2, fields: blob, source: {} }))).to.equal('StorageIsDeprecated');
    expect(type(evaluateStorage(created, { type: 'Update', ...t, rev: 1, fields: blob, source: {} }))).to.equal('DifferentStorageType');
    expect(type(evaluateStorage(created, { type: 'Tag', ...t, rev: 1, tag: 'x', targetRev: 9 }))).to.equal('RevisionNotFound');
  });

  it('fills in defaults, refuses disabled types and out-of-range sizes, keeps secrets out of the source', () => {
    expect(storageFields('urn:s', { '@type': 'DiskStorage' }, defaults)).to.deep.equal({ ...fields, default: false, maxFileSize: 100, volume: '/tmp' });
    expect(storageFields('urn:s', { '@type': ['Storage', 'nxv:DiskStorage'], maxFileSize: 100 }, defaults).maxFileSize).to.equal(100);
    expect(() => storageFields('urn:s', { '@type': 'BlobStorage' }, defaults))
      .to.throw(Rejection)
      .with.property('type', 'InvalidStorageType');
    expect(() => storageFields('urn:s', { '@type': 'DiskStorage', maxFileSize: 101 }, defaults))
      .to.throw(Rejection)
      .with.property('type', 'InvalidMaxFileSize');
    expect(() => storageFields('urn:s', { '@type': 'DiskStorage', maxFileSize: 0 }, defaults))
      .to.throw(Rejection)
      .with.property('type', 'InvalidMaxFileSize');
    expect(withoutSecrets({ '@type': 'BlobStorage', secretKey: 's', credentials: 'c', bucket: 'b' })).to.deep.equal({ '@type': 'BlobStorage', bucket: 'b' });
  });
});

describe('file state machine', () => {
  const value: FileValue = {
    attributes: { uuid: 'u', path: 'o/p/u', filename: 'f', mediaType: 'text/plain', bytes: 1, digest: 'd' },
    storage: { id: 'urn:s', type: 'DiskStorage', rev: 1 },
  };
  const created = nextFile(undefined, evaluateFile(undefined, { type: 'Create', ...t, ...value }) as FileEvent) as FileState;

  it('updates, tags, removes tags, deprecates and undeprecates', () => {
    let s = created;
    for (const cmd of [
      { type: 'Update' as const, ...t, rev: 1, ...value },
      { type: 'Tag' as const, ...t, rev: 2, tag: 'a', targetRev: 1 },
      { type: 'DeleteTag' as const, ...t, rev: 3, tag: 'a' },
      { type: 'Deprecate' as const, ...t, rev: 4 },
      { type: 'Undeprecate' as const, ...t, rev: 5 },
    ])
      s = nextFile(s, evaluateFile(s, cmd) as FileEvent)!;
    expect(s).to.include({ rev: 6, deprecated: false });
    expect(s.tags).to.deep.equal({});
  });

  it('rejects what cannot happen', () => {
    const deprecated = nextFile(created, evaluateFile(created, { type: 'Deprecate', ...t, rev: 1 }) as FileEvent) as FileState;
    expect(type(evaluateFile(created, { type: 'Create', ...t, ...value }))).to.equal('ResourceAlreadyExists');
    expect(type(evaluateFile(undefined, { type: 'Deprecate', ...t, rev: 1 }))).to.equal('ResourceNotFound');
    expect(type(evaluateFile(created, { type: 'Deprecate', ...t, rev: 3 }))).to.equal('IncorrectRev');
    expect(type(evaluateFile(deprecated, { type: 'Update', ...t, rev: 2, ...value }))).to.equal('FileIsDeprecated');
    expect(type(evaluateFile(created, { type: 'Undeprecate', ...t, rev: 1 }))).to.equal('FileIsNotDeprecated');
    expect(type(evaluateFile(created, { type: 'DeleteTag', ...t, rev: 1, tag: 'x' }))).to.equal('TagNotFound');
  });

  it('lays files out by project and uuid only', () => {
    expect(filePath('o/p', '0123abcd-0000-0000-0000-000000000000')).to.equal('o/p/01/23/0123abcd-0000-0000-0000-000000000000');
  });
});

describe('download headers and secrets', () => {
  it('writes Content-Disposition per RFC 6266', () => {
    expect(contentDisposition('a.txt')).to.equal('attachment; filename="a.txt"');
    expect(contentDisposition('é "x".txt')).to.equal(`attachment; filename="_ _x_.txt"; filename*=UTF-8''%C3%A9%20%22x%22.txt`);
  });

  it('reads one byte range', () => {
    expect(byteRange('bytes=0-9', 100)).to.deep.equal({ start: 0, end: 9 });
    expect(byteRange('bytes=90-', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).to.deep.equal({ start: 90, end: 99 });
    expect(byteRange('bytes=100-', 100)).to.equal('unsatisfiable');
    expect(byteRange('bytes=0-1,5-6', 100)).to.equal(undefined);
  });

  it('seals secrets so only the same password opens them', () => {
    const sealed = new AesSecretBox('pw').seal('secret');
    expect(sealed).not.to.include('secret');
    expect(new AesSecretBox('pw').open(sealed)).to.equal('secret');
    expect(() => new AesSecretBox('other').open(sealed)).to.throw();
  });
});
