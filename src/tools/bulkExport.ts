import { createWriteStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { bulkArgs, UsageError } from './bulkArgs.js';
import { progressWriter } from './bulkProgress.js';

const USAGE = 'usage: npm run export -- --url URL --project org/project [--format ndjson|nquads] [--token T] FILE';

/** `npm run export`: a project's export streamed into FILE (NDJSON lines, or N-Quads), with its progress. */
const main = async (): Promise<void> => {
  const args = bulkArgs(process.argv.slice(2), process.env, USAGE);
  const progress = progressWriter(process.stderr.isTTY === true, (text) => process.stderr.write(text));
  const url = new URL(`${args.url}/v1/export/projects/${args.project}`);
  const accept = args.format === 'nquads' ? 'application/n-quads' : 'application/x-ndjson';
  const started = performance.now();
  let items = 0;
  let bytes = 0;
  const status = () => ({ done: items, errors: 0, bytes, elapsedMillis: performance.now() - started });
  const res: IncomingMessage = await new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      headers: { accept, ...(args.token ? { authorization: `Bearer ${args.token}` } : {}) },
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    throw new Error(`the registry refused the export (${res.statusCode}): ${text}`);
  }
  const out = createWriteStream(args.file);
  for await (const chunk of res as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) items++;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    progress.show(status());
  }
  await new Promise<void>((r) => out.end(() => r()));
  if (!res.complete)
    throw new Error(`the connection ended before the export did: ${args.file} holds ${items} ${args.format === 'nquads' ? 'quads' : 'lines'} only`);
  progress.end(status(), `done: ${items} ${args.format === 'nquads' ? 'quads' : 'lines'} in ${args.file}`);
};

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : `export failed: ${(error as Error).message}`);
  process.exitCode = 2;
});
