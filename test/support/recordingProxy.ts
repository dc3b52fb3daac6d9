import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SparqlServer } from '../../src/store/SparqlHttpClient.js';

/** One request a replica sent the store. */
export interface Recorded {
  method: string;
  path: string;
  /** A write: a SPARQL update, or a Graph Store Protocol PUT / POST / DELETE. */
  write: boolean;
  /** The update's text (empty for a graph upload). */
  update: string;
  /** The query's text, for a query. */
  query: string;
}

export interface RecordingProxy {
  /** The store as the replica behind this proxy is told to reach it. */
  server: SparqlServer;
  /** Every request since the last `clear`. */
  readonly requests: readonly Recorded[];
  writes(): Recorded[];
  clear(): void;
  close(): Promise<void>;
}

/**
 * Stands between one replica and the SPARQL server (loopback) and notes what the replica sends, so a
 * test counts the writes of each replica on its own.
 */
export const recordingProxy = async (target: SparqlServer): Promise<RecordingProxy> => {
  const origin = new URL(target.query).origin;
  let requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      const update = type.startsWith('application/sparql-update') ? body.toString('utf8') : '';
      const gspWrite = req.url!.includes('graph-crud') && req.method !== 'GET' && req.method !== 'HEAD';
      const form = type.startsWith('application/x-www-form-urlencoded')
        ? new URLSearchParams(body.toString('utf8'))
        : new URL(req.url!, 'http://x').searchParams;
      requests.push({ method: req.method!, path: req.url!, write: update !== '' || gspWrite, update, query: form.get('query') ?? '' });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
      fetch(`${origin}${req.url}`, { method: req.method!, headers, ...(body.length ? { body } : {}) }).then(
        async (answer) => {
          const text = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) out[name] = value;
          });
          res.writeHead(answer.status, out).end(text);
        },
        (error: Error) => res.writeHead(502).end(error.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const via = (url: string | undefined) => url && `${base}${new URL(url).pathname}`;
  return {
    server: { query: via(target.query)!, ...(target.update ? { update: via(target.update)! } : {}), ...(target.gsp ? { gsp: via(target.gsp)! } : {}) },
    get requests() {
      return requests;
    },
    writes: () => requests.filter((r) => r.write),
    clear: () => void (requests = []),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
};
