import { request } from 'node:http';

/** The lines of an NDJSON answer, parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ndjson = (text: string): any[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

/** POSTs NDJSON lines (strings are sent as they are, objects as JSON). */
export const postLines = async (url: string, lines: (string | object)[], headers: Record<string, string> = {}) => {
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-ndjson', ...headers } });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text,
    lines: res.status === 200 ? ndjson(text) : [],
    body: res.status === 200 ? undefined : JSON.parse(text),
  };
};

/**
 * Sends `lines`, then `tail` (the start of a line, never finished), and drops the connection once
 * `answers` answer lines arrived: an import cut off by the client. Resolves to the answers read.
 */
export const interruptedImport = (url: string, lines: string[], tail: string, answers: number): Promise<string[]> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' } });
    let received = '';
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        received += chunk;
        const done = received.split('\n').filter((l) => l.trim() !== '');
        if (done.length >= answers && received.endsWith('\n')) {
          req.destroy();
          resolve(done);
        }
      });
    });
    req.on('error', () => undefined);
    req.write(lines.map((l) => `${l}\n`).join('') + tail);
    setTimeout(() => reject(new Error(`only ${received.split('\n').length - 1} answers arrived`)), 60_000).unref();
  });
