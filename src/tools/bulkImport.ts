import { createReadStream, createWriteStream, openSync, readSync, closeSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { bulkArgs, UsageError } from './bulkArgs.js';
import type { BulkArgs } from './bulkArgs.js';
import { progressWriter } from './bulkProgress.js';

const USAGE = 'usage: npm run import -- --url URL --project org/project [--schema ID] [--update] [--tag TAG] [--from-line N] [--errors FILE] [--token T] FILE';

/** Where line `fromLine` starts in the file, and how many lines the file has in all (a last one without newline included). */
const scan = (path: string, fromLine: number): { offset: number; lines: number } => {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let position = 0;
  let line = 1;
  let offset = fromLine === 1 ? 0 : -1;
  let last = 0x0a;
  try {
    for (let read = readSync(fd, buffer, 0, buffer.length, position); read > 0; read = readSync(fd, buffer, 0, buffer.length, position)) {
      for (let i = buffer.indexOf(0x0a, 0); i !== -1 && i < read; i = buffer.indexOf(0x0a, i + 1)) {
        line++;
        if (line === fromLine) offset = position + i + 1;
      }
      last = buffer[read - 1]!;
      position += read;
    }
  } finally {
    closeSync(fd);
  }
  const lines = last === 0x0a ? line - 1 : line;
  if (offset === -1) throw new UsageError(`--from-line ${fromLine}: the file has ${lines} lines`);
  return { offset, lines };
};

export interface ImportSummary {
  /** The last line of the file answered, and how many of the answers were errors. */
  lastLine: number;
  errors: number;
  /** Where to resume when the import stopped before the end (the server or the connection failed). */
  resumeFrom?: number;
}

/** Sends the file from `fromLine` as one streamed import and follows its answers; errors go to the errors file, with the file's line numbers. */
const importFile = (args: BulkArgs, progress: ReturnType<typeof progressWriter>): Promise<ImportSummary> => {
  const { offset, lines } = scan(args.file, args.fromLine);
  const total = lines - args.fromLine + 1;
  const query = new URLSearchParams({ ...(args.update ? { update: 'true' } : {}), ...(args.tag ? { tag: args.tag } : {}) }).toString();
  const url = new URL(`${args.url}/v1/bulk/resources/${args.project}${args.schema ? `/${encodeURIComponent(args.schema)}` : ''}${query ? `?${query}` : ''}`);
  const started = performance.now();
  const errorsPath = args.errors ?? `${args.file}.errors.ndjson`;
  let errorsFile: WriteStream | undefined;
  let errors = 0;
  let lastLine = args.fromLine - 1;
  let bytes = 0;
  const status = () => ({ done: lastLine - args.fromLine + 1, total, errors, bytes, elapsedMillis: performance.now() - started });
  return new Promise((resolve, reject) => {
    const finish = (summary: ImportSummary) => {
      progress.end(
        status(),
        summary.resumeFrom ? `stopped: resume with --from-line ${summary.resumeFrom}` : `done: ${errors} errors${errors ? ` (in ${errorsPath})` : ''}`,
      );
      if (errorsFile) errorsFile.end(() => resolve(summary));
      else resolve(summary);
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', ...(args.token ? { authorization: `Bearer ${args.token}` } : {}) },
    });
    req.on('error', () => finish({ lastLine, errors, resumeFrom: lastLine + 1 }));
    req.on('response', (res: IncomingMessage) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (c: string) => (text += c));
        res.on('end', () => reject(new Error(`the registry refused the import (${res.statusCode}): ${text}`)));
        return;
      }
      let held = '';
      let stopped: number | undefined;
      res.on('data', (chunk: string) => {
        held += chunk;
        const complete = held.split('\n');
        held = complete.pop()!;
        for (const text of complete) {
          if (text.trim() === '') continue;
          const answer = JSON.parse(text) as { line: number; status: number; '@type'?: string };
          const line = args.fromLine + answer.line - 1;
          // The log failed: this line and the ones after it were not written.
          if (answer['@type'] === 'EventLogUnavailable') {
            stopped = line;
            continue;
          }
          lastLine = line;
          if (answer.status >= 400) {
            errors++;
            errorsFile ??= createWriteStream(errorsPath, { flags: args.fromLine > 1 ? 'a' : 'w' });
            errorsFile.write(`${JSON.stringify({ ...answer, line })}\n`);
          }
        }
        progress.show(status());
      });
      res.on('error', () => undefined);
      res.on('close', () => {
        // Lines left after the last answer, other than blank ones, never landed.
        const incomplete = stopped !== undefined || !res.complete;
        finish({ lastLine, errors, ...(incomplete ? { resumeFrom: stopped ?? lastLine + 1 } : {}) });
      });
    });
    const body = createReadStream(args.file, { start: offset });
    body.on('data', (chunk) => (bytes += chunk.length));
    body.pipe(req);
  });
};

const main = async (): Promise<void> => {
  const args = bulkArgs(process.argv.slice(2), process.env, USAGE);
  const summary = await importFile(
    args,
    progressWriter(process.stderr.isTTY === true, (text) => process.stderr.write(text)),
  );
  process.exitCode = summary.resumeFrom !== undefined ? 3 : summary.errors > 0 ? 1 : 0;
};

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : `import failed: ${(error as Error).message}`);
  process.exitCode = 2;
});
