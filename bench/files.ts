import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { json, startProcess } from './harness.js';

const MIB = 1024 * 1024;

/** Resident memory of a process, in bytes (Linux). */
export const rss = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
};

/** Samples a process' RSS every 50 ms while `work` runs; returns the work's result and the peak. */
export const sampled = async <T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number; millis: number }> => {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
  const started = performance.now();
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rss(pid)), millis: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
};

/** Streams `file` as the `file` part of a multipart body; nothing is held whole in memory. */
export const uploadFile = (url: string, file: string, size: number): Promise<number> => {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    yield* createReadStream(file, { highWaterMark: MIB });
    yield tail;
  }
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'PUT',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 201 ? resolve(res.statusCode) : reject(new Error(`${res.statusCode} ${Buffer.concat(chunks)}`))));
    });
    req.once('error', reject);
    pipeline(Readable.from(body()), req).catch(reject);
  });
};

/** Downloads and counts the bytes (node:http, as the SDK's plain download does). */
const download = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    request(url, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`download: ${res.statusCode}`));
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    })
      .once('error', reject)
      .end();
  });

const rate = (bytes: number, millis: number) => (bytes / MIB / (millis / 1000)).toFixed(0).padStart(5);

/**
 * Upload and download of one large file through the registry, on a disk storage and on an
 * S3-compatible store (s3rver on loopback): throughput beside a plain copy of the same bytes, and
 * the server's RSS growth. BENCH_FILE_MB sets the size (default 1024).
 */
export const benchFiles = async (megabytes = Number(process.env['BENCH_FILE_MB'] ?? 1024)): Promise<void> => {
  const size = megabytes * MIB;
  const work = mkdtempSync(join(tmpdir(), 'registry-bench-files-'));
  const source = join(work, 'source.bin');
  // Random blocks (not zeros) so that nothing on the way can shortcut the bytes.
  const block = randomBytes(MIB);
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < megabytes; i++) yield block;
      })(),
    ),
    createWriteStream(source),
  );
  console.log(`\nfiles: one ${megabytes} MiB file uploaded (multipart, streamed) and downloaded, on disk and on S3 (s3rver on loopback)`);

  // The plain copies the registry is compared with: the same bytes file to file, and file to nothing.
  const copyStart = performance.now();
  await pipeline(createReadStream(source, { highWaterMark: MIB }), createWriteStream(join(work, 'copy.bin')));
  const copyMillis = performance.now() - copyStart;
  rmSync(join(work, 'copy.bin'));
  const readStart = performance.now();
  await pipeline(
    createReadStream(source, { highWaterMark: MIB }),
    new Writable({
      write: (_c, _e, done) => done(),
    }),
  );
  const readMillis = performance.now() - readStart;
  console.log(`plain copy (file to file)            ${rate(size, copyMillis)} MiB/s`);
  console.log(`plain read (file to nothing)         ${rate(size, readMillis)} MiB/s`);

  const s3dir = join(work, 's3');
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', directory: s3dir, silent: true });
  const { port: s3port } = await s3.run();
  const endpoint = `http://127.0.0.1:${s3port}`;
  const s3Client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const directStart = performance.now();
  await s3Client.send(new CreateBucketCommand({ Bucket: 'bench-direct' }));
  await new Upload({
    client: s3Client,
    params: { Bucket: 'bench-direct', Key: 'big.bin', Body: createReadStream(source, { highWaterMark: MIB }) },
    partSize: 8 * MIB,
    queueSize: 4,
  }).done();
  const directMillis = performance.now() - directStart;
  console.log(`plain S3 upload (SDK, no registry)   ${rate(size, directMillis)} MiB/s`);
  const directReadStart = performance.now();
  const object = await s3Client.send(new GetObjectCommand({ Bucket: 'bench-direct', Key: 'big.bin' }));
  let directBytes = 0;
  for await (const chunk of object.Body as Readable) directBytes += (chunk as Buffer).length;
  if (directBytes !== size) throw new Error(`plain S3 download: ${directBytes} bytes of ${size}`);
  const directReadMillis = performance.now() - directReadStart;
  console.log(`plain S3 download (SDK, no registry) ${rate(size, directReadMillis)} MiB/s`);

  const volume = join(work, 'volume');
  const config = join(work, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      plugins: {
        storage: {
          storages: {
            disk: { 'default-volume': volume, 'default-max-file-size': 4 * 1024 * MIB },
            blob: {
              enabled: true,
              'default-endpoint': endpoint,
              'default-access-key': 'S3RVER',
              'default-secret-key': 'S3RVER',
              'default-bucket': 'bench-bucket',
              'default-max-file-size': 4 * 1024 * MIB,
            },
          },
        },
      },
    }),
  );
  mkdirSync(volume, { recursive: true });
  const port = 20_000 + Math.floor(Math.random() * 1000);
  const server = await startProcess(join(work, 'data'), port, { CONFIG_FILE: config, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MILLIS: '3600000' });
  const pid = server.child.pid!;
  try {
    await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
    await json(`${server.url}/v1/projects/bench/files`, 'PUT', {});
    await json(`${server.url}/v1/storages/bench/files/s3`, 'PUT', { '@type': 'BlobStorage', default: false });
    const base = rss(pid);
    for (const [name, storage, plainUp, plainDown] of [
      ['disk', 'defaultStorage', copyMillis, readMillis],
      ['S3', 's3', directMillis, directReadMillis],
    ] as const) {
      const up = await sampled(pid, () => uploadFile(`${server.url}/v1/files/bench/files/big-${name}?storage=${storage}`, source, size));
      const down = await sampled(pid, () => download(`${server.url}/v1/files/bench/files/big-${name}`));
      if (down.result !== size) throw new Error(`downloaded ${down.result} bytes of ${size}`);
      const growth = (peak: number) => ((peak - base) / MIB).toFixed(0).padStart(4);
      console.log(
        `${`upload, ${name}`.padEnd(36)} ${rate(size, up.millis)} MiB/s  (${((plainUp / up.millis) * 100).toFixed(0)} % of the plain ${name === 'disk' ? 'copy' : 'S3 upload'}${name === 'disk' ? '' : `, ${((copyMillis / up.millis) * 100).toFixed(0)} % of the plain copy`})  server RSS +${growth(up.peak)} MiB`,
      );
      console.log(
        `${`download, ${name}`.padEnd(36)} ${rate(size, down.millis)} MiB/s  (${((plainDown / down.millis) * 100).toFixed(0)} % of the plain ${name === 'disk' ? 'read' : 'S3 download'}, ${((copyMillis / down.millis) * 100).toFixed(0)} % of the plain copy)  server RSS +${growth(down.peak)} MiB`,
      );
    }
  } finally {
    await server.stop();
    await s3.close();
    rmSync(work, { recursive: true, force: true });
  }
};

if (process.argv[1]?.endsWith('/bench/files.js')) await benchFiles();
