import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { json, startProcess } from './harness.js';
import { rss, sampled, uploadFile } from './files.js';

const MIB = 1024 * 1024;

/** Downloads an archive with the given Accept and counts its bytes. */
const downloadArchive = (url: string, accept: string): Promise<number> =>
  new Promise((resolve, reject) => {
    request(url, { headers: { accept } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`archive: ${res.statusCode}`));
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    })
      .once('error', reject)
      .end();
  });

/**
 * An archive of one large file (BENCH_ARCHIVE_MB, default 1024) and a resource, downloaded as tar
 * and as zip from a registry process: throughput and the server's RSS growth over its RSS before the
 * download (the bound: under 100 MB).
 */
export const benchArchives = async (megabytes = Number(process.env['BENCH_ARCHIVE_MB'] ?? 1024)): Promise<void> => {
  const size = megabytes * MIB;
  const work = mkdtempSync(join(tmpdir(), 'registry-bench-archives-'));
  const source = join(work, 'source.bin');
  const block = randomBytes(MIB);
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < megabytes; i++) yield block;
      })(),
    ),
    createWriteStream(source),
  );
  const volume = join(work, 'volume');
  mkdirSync(volume, { recursive: true });
  const config = join(work, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({ plugins: { storage: { storages: { disk: { 'default-volume': volume, 'default-max-file-size': 4 * 1024 * MIB } } } } }),
  );
  const port = 21_000 + Math.floor(Math.random() * 1000);
  const server = await startProcess(join(work, 'data'), port, { CONFIG_FILE: config, LOG_LEVEL: 'silent', REQUEST_TIMEOUT_MILLIS: '3600000' });
  const pid = server.child.pid!;
  try {
    await json(`${server.url}/v1/orgs/bench`, 'PUT', {});
    await json(`${server.url}/v1/projects/bench/arch`, 'PUT', {});
    await json(`${server.url}/v1/resources/bench/arch/_/thing`, 'PUT', { '@context': { '@vocab': 'http://ex.org/' }, name: 'thing' });
    await uploadFile(`${server.url}/v1/files/bench/arch/big`, source, size);
    await json(`${server.url}/v1/archives/bench/arch/a`, 'PUT', {
      resources: [
        { '@type': 'File', resourceId: 'big' },
        { '@type': 'Resource', resourceId: 'thing' },
      ],
    });
    console.log(`\narchives: one ${megabytes} MiB file and a resource, downloaded as an archive (streamed)`);
    for (const [name, accept] of [
      ['tar', 'application/x-tar'],
      ['zip', 'application/zip'],
    ] as const) {
      const before = rss(pid);
      const { result: bytes, peak, millis } = await sampled(pid, () => downloadArchive(`${server.url}/v1/archives/bench/arch/a`, accept));
      if (bytes < size) throw new Error(`${name}: ${bytes} bytes for a ${size}-byte file`);
      const growth = (peak - before) / MIB;
      console.log(
        `${name.padEnd(4)} ${(bytes / MIB).toFixed(0)} MiB in ${(millis / 1000).toFixed(1)} s, ${(bytes / MIB / (millis / 1000)).toFixed(0)} MiB/s; server RSS ${(before / MIB).toFixed(0)} MiB before, peak +${growth.toFixed(0)} MiB (bound: 100)`,
      );
    }
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
};
