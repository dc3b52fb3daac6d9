import type { Request, Response, Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import { bool, tagName } from '../../http/params.js';
import { FETCH, STATES } from '../../http/reads.js';
import { onProject, projectOf, segment } from '../../http/route.js';
import type { Context, Routes } from '../../http/route.js';
import { statusOf } from '../../http/statusOf.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { Rejection } from '../../kernel/Rejection.js';
import { EventLogUnavailable } from '../../events/EventLog.js';
import type { BulkService } from './BulkService.js';
import type { LineOutcome } from './BulkImport.js';

interface Deps {
  bulk: BulkService;
  addresses: Addresses;
}

const NDJSON = 'application/x-ndjson';
/** The media types an import reads: NDJSON under its common names. */
const LINE_TYPES: ReadonlySet<string> = new Set([NDJSON, 'application/jsonl', 'application/jsonlines', 'application/x-jsonlines']);
const EXPORT_TYPES = [NDJSON, 'application/n-quads'];
/** Bytes of an export gathered before a write: one write per line would cost more than the line. */
const EXPORT_CHUNK = 64 * 1024;

/** Whether a request is a bulk import: its body is streamed through, read line by line as it arrives. */
export const isBulkImport = (req: { method?: string; url?: string }): boolean => req.method === 'POST' && (req.url?.startsWith('/v1/bulk/') ?? false);

/** The typed error of a line, as the error body of a request (its status beside it). */
const errorLine = (line: number, rejection: Rejection) => {
  const { allowed: _a, relayedStatus: _r, retryAfter: _ra, ...fields } = rejection.fields;
  return { line, status: statusOf(rejection.type, rejection.fields) ?? 400, '@type': rejection.type, reason: rejection.reason, ...fields };
};

const answerLine = (outcome: LineOutcome) =>
  'rejection' in outcome
    ? errorLine(outcome.line, outcome.rejection)
    : { line: outcome.line, status: outcome.created ? 201 : 200, '@id': outcome.state.id, _rev: outcome.state.rev };

/** A streamed answer: writes wait while the client does not read (its buffer full), and end at once when it left. */
const streamTo = (res: Response) => {
  let closed = false;
  res.on('close', () => (closed = true));
  const flush = () => (res as Response & { flush?: () => void }).flush?.();
  return {
    closed: () => closed,
    write: (text: string) =>
      new Promise<void>((resolve) => {
        if (closed || res.write(text)) return resolve();
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      }),
    flush,
  };
};

const importHandler = (bulk: BulkService, schemaOf: (req: Request) => string) => async (req: Request, res: Response, ctx: Context) => {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!LINE_TYPES.has(type))
    throw new Rejection(
      'UnsupportedRequestContentTypeRejection',
      `The request's Content-Type '${type || 'none'}' is not supported; a bulk import reads '${NDJSON}' (one JSON-LD payload per line).`,
    );
  const ref = projectOf(req);
  const options = { schema: schemaOf(req), upsert: bool(req.query, 'update') === true, tag: tagName(req.query), caller: ctx.caller };
  bulk.checkWritable(ref);
  const out = streamTo(res);
  res.status(200).type(NDJSON);
  res.flushHeaders();
  let answered = 0;
  try {
    await bulk.import(
      ref,
      options,
      req,
      async (outcomes) => {
        await out.write(outcomes.map((o) => `${JSON.stringify(answerLine(o))}\n`).join(''));
        out.flush();
        answered = outcomes[outcomes.length - 1]?.line ?? answered;
      },
      out.closed,
    );
  } catch (error) {
    if (out.closed()) return;
    // The log failed: every answered line is in, none after; the client resumes from the next one.
    if (!(error instanceof EventLogUnavailable)) throw error;
    await out.write(`${JSON.stringify(errorLine(answered + 1, rejections.eventLogUnavailable()))}\n`);
  }
  res.end();
};

const exportHandler = (bulk: BulkService) => async (req: Request, res: Response, ctx: Context) => {
  const type = req.accepts(EXPORT_TYPES);
  if (!type) throw rejections.notAcceptable(EXPORT_TYPES);
  const ref = projectOf(req);
  const chunks = bulk.export(ref, type === NDJSON ? 'records' : 'quads', ctx.caller);
  const out = streamTo(res);
  res.vary('Accept').status(200).type(type);
  let held = '';
  for await (const chunk of chunks) {
    held += chunk;
    if (held.length < EXPORT_CHUNK) continue;
    await out.write(held);
    held = '';
    if (out.closed()) return;
  }
  res.end(held);
};

/** Bulk import of NDJSON into a project, and a project's export (its every item and revision). */
export const bulkRoutes = (routes: Routes, router: Router, { bulk }: Deps): void => {
  const importing = (schemaOf: (req: Request) => string) => ({
    guard: { permission: 'resources/write' as const, on: onProject },
    reads: STATES,
    body: 'none' as const,
    costly: true as const,
    indexing: true as const,
    summary: 'Bulk import: one JSON-LD payload (or one line of an export) per NDJSON line, each answered by a line.',
    handle: importHandler(bulk, schemaOf),
  });
  routes.add(router, '/v1/bulk/resources/:org/:project', { post: importing(() => '_') });
  routes.add(router, '/v1/bulk/resources/:org/:project/:schema', { post: importing((req) => segment(req, 'schema')) });
  routes.add(router, '/v1/export/projects/:org/:project', {
    get: {
      guard: { permission: 'resources/read', on: onProject },
      // States and the log are what it reads; the catalogue as a GET under a project waits for it, so an export follows a fetch's consistency.
      reads: FETCH,
      body: 'none',
      costly: true,
      summary: "A project's every item and revision, as NDJSON lines or, by `Accept: application/n-quads`, revision graphs.",
      handle: exportHandler(bulk),
    },
  });
};
