/**
 * CPU of storage statistics and of uploads to a storage with a capacity at N files (issue 34), in
 * the process that serves them (`process.cpuUsage`: wall time is distorted on a loaded machine).
 * `node dist/bench/storageUsage.js <dist directory of the build measured> [files] [capacity]`: the
 * build is imported from that directory, so one script measures main and a branch alike.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Support {
  startServer(overrides: object): Promise<{ url: string; stop(remove?: boolean): Promise<void> }>;
}
interface FilesSupport {
  storagesConfig(): { config: object };
  upload(url: string, method: 'PUT', data: string): Promise<{ status: number }>;
}

const [dist = 'dist', files = '1000', capacity = ''] = process.argv.slice(2);
const n = Number(files);
const { startServer } = (await import(join(resolve(dist), 'test/support/server.js'))) as Support;
const { storagesConfig, upload } = (await import(join(resolve(dist), 'test/support/files.js'))) as FilesSupport;
const server = await startServer({ storages: { ...storagesConfig().config, allowedVolumes: [tmpdir()] } });
const put = (path: string, body: object) =>
  fetch(server.url + path, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
await put('/v1/orgs/o', {});
await put('/v1/projects/o/p', {});
const storage = capacity ? 'cap' : 'defaultStorage';
if (capacity)
  await put('/v1/storages/o/p/cap', { '@type': 'DiskStorage', default: true, volume: mkdtempSync(join(tmpdir(), 'usage-bench-')), capacity: Number(capacity) });
let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    for (let i = next++; i < n; i = next++) await upload(`${server.url}/v1/files/o/p/f${i}`, 'PUT', 'bytes');
  }),
);
const stats = () => fetch(`${server.url}/v1/storages/o/p/${storage}/statistics`).then((r) => r.json());
console.log(JSON.stringify(await stats()));
const perCall = async (calls: number, work: (i: number) => Promise<unknown>) => {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await work(i);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / calls).toFixed(3);
};
for (let round = 0; round < 3; round++) {
  console.log(`round ${round}: ${await perCall(50, stats)} ms CPU per statistics request`);
  console.log(
    `round ${round}: ${await perCall(20, (i) => upload(`${server.url}/v1/files/o/p/x${round}-${i}`, 'PUT', 'bytes'))} ms CPU per upload to ${storage}`,
  );
}
await server.stop(true);
process.exit(0);
