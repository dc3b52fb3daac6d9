import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { EndpointPolicy, isInternalAddress } from '../../src/modules/files/EndpointPolicy.js';
import { RemoteDiskFileStore } from '../../src/modules/files/RemoteDiskFileStore.js';
import { VolumeCapacityLedger } from '../../src/modules/files/VolumeCapacityLedger.js';
import { verifiedBytes } from '../../src/modules/files/files/verifiedBytes.js';
import { startRecorder } from '../support/objectStores.js';

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { type?: string; message?: string }) => e.type ?? e.message ?? 'error',
  );

describe('endpoint policy of remote storages', () => {
  it('classes loopback, link-local, private and mapped addresses as internal (IPv4 and IPv6), public ones not', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
    ])
      expect(isInternalAddress(a), a).to.equal(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isInternalAddress(a), a).to.equal(false);
  });

  it('allows the default endpoint and literally listed hosts; a wildcard host must resolve to public addresses only', async () => {
    const names: Record<string, string[]> = {
      'public.example.com': ['93.184.216.34'],
      'rebound.example.com': ['10.0.0.5'],
      'mixed.example.com': ['93.184.216.34', '::1'],
    };
    const policy = new EndpointPolicy(
      { BlobStorage: ['https://*.example.com', 'http://10.9.9.9:9000'], RemoteDiskStorage: [] },
      { BlobStorage: 'http://127.0.0.1:4569', RemoteDiskStorage: undefined },
      async (host) => names[host] ?? [],
    );
    const check = (type: 'BlobStorage' | 'RemoteDiskStorage', endpoint: string) => refusal(policy.check('urn:s', type, endpoint));
    expect(await check('BlobStorage', 'http://127.0.0.1:4569')).to.equal(undefined);
    expect(await check('BlobStorage', 'http://127.0.0.1:4569/')).to.equal(undefined);
    expect(await check('BlobStorage', 'http://10.9.9.9:9000')).to.equal(undefined);
    expect(await check('BlobStorage', 'https://public.example.com')).to.equal(undefined);
    for (const bad of [
      'https://rebound.example.com',
      'https://mixed.example.com',
      'https://unknown.example.com',
      'http://public.example.com',
      'https://public.example.com:8443',
      'http://127.0.0.1:4570',
      'http://10.9.9.9:9001',
      'https://public.example.com/x?y=',
      'https://u:p@public.example.com',
      'file:///etc/passwd',
      'not a url',
    ])
      expect(await check('BlobStorage', bad), bad).to.equal('InvalidStorageEndpoint');
    expect(await check('RemoteDiskStorage', 'https://public.example.com')).to.equal('InvalidStorageEndpoint');
  });
});

describe('requests to the remote disk service', () => {
  it('never follow a redirect: the token does not reach where a 3xx points', async () => {
    const target = await startRecorder();
    const redirecting = await startRecorder((_r, res) => void res.writeHead(302, { location: `${target.endpoint}/buckets/f/files/x` }).end());
    try {
      const store = new RemoteDiskFileStore('urn:r', redirecting.endpoint, 'f', 'the-token', { connectMillis: 2_000, transferMillis: 5_000 });
      expect(await refusal(store.check())).to.equal('StorageNotAccessible');
      expect(await refusal(store.read('x'))).to.equal('StorageNotAccessible');
      expect(redirecting.received.length).to.equal(2);
      expect(target.received).to.deep.equal([]);
    } finally {
      await target.stop();
      await redirecting.stop();
    }
  });

  it('give up on a service that does not answer (connect bound) instead of waiting forever', async () => {
    const silent = await startRecorder(() => undefined);
    try {
      const store = new RemoteDiskFileStore('urn:r', silent.endpoint, 'f', 't', { connectMillis: 200, transferMillis: 60_000 });
      expect(await refusal(store.check())).to.equal('StorageNotAccessible');
      expect(await refusal(store.read('x'))).to.not.equal(undefined);
      expect(silent.received.length).to.equal(2);
    } finally {
      await silent.stop();
    }
  });
});

describe('capacity ledger shared by replicas on one volume', () => {
  it('never grants more than the capacity across two ledgers (two processes) reserving at once, and takes back releases', async () => {
    const volume = mkdtempSync(join(tmpdir(), 'registry-ledger-'));
    const replicas = [new VolumeCapacityLedger(), new VolumeCapacityLedger()];
    const request = (i: number) => ({
      storageKey: 'o/p/urn:s',
      volume,
      uuid: randomUUID(),
      wanted: 30,
      capacity: 100,
      usage: async () => ({ used: 0, position: 0 }),
      index: i,
    });
    const grants = await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.reserve(request(i))));
    const granted = grants.reduce((sum, g) => sum + g.bytes, 0);
    expect(granted).to.equal(100);
    await Promise.all(grants.map((g) => g.release()));
    const again = await replicas[1]!.reserve(request(99));
    expect(again.bytes).to.equal(30);
    await again.commit(25, 7);
    // A committed grant still counts (for replicas that have not seen its file yet), at its written size.
    const behind = await replicas[0]!.reserve({ ...request(100), wanted: 100 });
    expect(behind.bytes).to.equal(75);
    await behind.release();
    // Once the account has folded its event (7), its bytes are counted there and not twice.
    const folded = await replicas[0]!.reserve({ ...request(101), wanted: 100, usage: async () => ({ used: 25, position: 7 }) });
    expect(folded.bytes).to.equal(75);
    await folded.release();
    const dir = readdirSync(join(volume, '.registry-capacity'));
    expect(dir).to.have.length(1);
  });
});

describe('downloads checked against what was recorded', () => {
  const recorded = { bytes: 5, digest: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' };
  const read = (chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));
  const outcome = (s: Readable) =>
    s.toArray().then(
      (parts) => Buffer.concat(parts).toString(),
      (e: Error) => `failed: ${e.message}`,
    );

  it('passes the recorded bytes, and fails on other bytes, more or fewer, before handing on the last chunk', async () => {
    const mismatch = (d: string) => new Error(d);
    expect(await outcome(verifiedBytes(read(['he', 'llo']), recorded, mismatch))).to.equal('hello');
    expect(await outcome(verifiedBytes(read(['he', 'LLO']), recorded, mismatch))).to.match(/^failed: .*SHA-256/);
    expect(await outcome(verifiedBytes(read(['he', 'llo!']), recorded, mismatch))).to.match(/^failed: .*more than/);
    expect(await outcome(verifiedBytes(read(['he', 'l']), recorded, mismatch))).to.match(/^failed: .*3 bytes/);
    const seen: string[] = [];
    const tampered = verifiedBytes(read(['he', 'LLO']), recorded, mismatch);
    tampered.on('data', (c: Buffer) => seen.push(c.toString()));
    await new Promise((r) => tampered.once('error', r));
    expect(seen.join('')).to.equal('he');
  });
});
