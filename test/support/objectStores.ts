import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** An S3-compatible server (s3rver) on loopback with its own directory; its one account's access key is `S3RVER`. */
export const startS3 = async () => {
  const directory = mkdtempSync(join(tmpdir(), 'registry-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

/**
 * A small remote disk service for tests: `HEAD /buckets/{folder}`, `PUT`/`GET`/`DELETE
 * /buckets/{folder}/files/{path}`, every request checked for the bearer token; bytes kept in memory.
 */
export const startRemoteDisk = async (token: string, folders: string[]) => {
  const files = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
    const match = /^\/buckets\/([^/]+)(?:\/files\/(.+))?$/.exec(req.url ?? '');
    if (!match || !folders.includes(decodeURIComponent(match[1]!))) return void res.writeHead(404).end();
    const key = `${match[1]}/${match[2] ?? ''}`;
    if (match[2] === undefined) return void res.writeHead(req.method === 'HEAD' ? 200 : 405).end();
    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        files.set(key, Buffer.concat(chunks));
        res.writeHead(201).end();
      });
      return;
    }
    const bytes = files.get(key);
    if (req.method === 'DELETE') {
      files.delete(key);
      return void res.writeHead(204).end();
    }
    if (!bytes) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (range) return void res.writeHead(206).end(bytes.subarray(Number(range[1]), Number(range[2]) + 1));
    res.writeHead(200).end(bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    files,
    stop: () => new Promise((r) => server.close(r)),
  };
};

/** What a recording server received: method, address and headers of each request. */
export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * An "internal" HTTP service on loopback that records every request it receives and answers with
 * `answer` (default: 200, empty), to prove what the registry sends, or never sends, to an address.
 */
export const startRecorder = async (answer: (req: Recorded, res: import('node:http').ServerResponse) => void = (_r, res) => void res.writeHead(200).end()) => {
  const received: Recorded[] = [];
  const server = createServer((req, res) => {
    const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    received.push(record);
    req.resume();
    req.on('end', () => answer(record, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    stop: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
};
