import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { createRegistry } from '../src/app.js';
import type { AclCheck } from '../src/kernel/AclCheck.js';
import { bodyReaders } from '../src/http/bodyReader.js';
import { Routes } from '../src/http/route.js';
import type { Method } from '../src/http/route.js';

/**
 * What finding a request's reads costs: the lookup router over the registry's whole route table
 * (Express' matching, as the barrier now does) against the former URL rule (a few string tests),
 * alternated in one run, per request, in process. `node dist/bench/readsLookup.js [N]`.
 */
const formerRule = (req: { method: string; path: string; query: Record<string, string> }): string[] => {
  const path = req.path;
  if (!path.startsWith('/v1/') || (req.method === 'GET' && path.endsWith('/events'))) return [];
  const sparql = path.endsWith('/sparql');
  const search = path.startsWith('/v1/search') || path.includes('/_search') || path.includes('/search/') || req.query['q'] !== undefined;
  const read = req.method === 'GET' || req.method === 'HEAD' || sparql || search || path.startsWith('/v1/multi-fetch');
  if (!read) return ['states'];
  const catalogueGraph = req.query['sort'] !== undefined || req.query['aggregations'] !== undefined || /\/(incoming|outgoing)$/.test(path);
  return ['states', 'catalogue', ...(search ? ['text'] : []), ...(sparql ? ['sparql'] : []), ...(sparql || search || catalogueGraph ? ['store'] : [])];
};

const count = Number(process.argv[2] ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'registry-bench-reads-'));
const registry = await createRegistry({
  port: 0,
  baseUrl: 'http://127.0.0.1:1',
  dataDir: dir,
  maxPayloadBytes: 256 * 1024,
  maxStoreQuads: 8_000_000,
  snapshotEvents: 1_000_000,
  snapshotMillis: 3_600_000,
  logLevel: 'silent',
});
// The same table in a Routes of its own, for its lookup alone.
const routes = new Routes({} as AclCheck, bodyReaders({ json: 1024 }));
const express = (await import('express')).default;
const router = express.Router();
for (const r of registry.routes) {
  const endpoint = { guard: r.guard, reads: r.reads, body: r.body, handle: () => undefined };
  if (r.method === 'head') routes.only(router, 'head', r.path, endpoint);
  else routes.add(router, r.path, { [r.method as Method]: endpoint });
}
const lookup = routes.readsLookup() as RequestHandler;
// Typical requests: item fetches and writes, listings, a search, SPARQL, an event stream.
const requests = [
  ['GET', '/v1/resources/o/p/_/x'],
  ['PUT', '/v1/resources/o/p/_/x?rev=1'],
  ['GET', '/v1/resources/o/p?q=word'],
  ['GET', '/v1/resources/o/p/_/x/incoming'],
  ['POST', '/v1/search/query'],
  ['GET', '/v1/views/o/p/graph/sparql?query=x'],
  ['GET', '/v1/resources/o/p/events'],
  ['GET', '/v1/orgs/o'],
].map(([method, url]) => {
  const [path, search] = url!.split('?');
  return { method: method!, url: url!, path: path!, query: Object.fromEntries(new URLSearchParams(search ?? '')) };
});

const viaLookup = async (): Promise<number> => {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const r = requests[i % requests.length]!;
    const req = { method: r.method, url: r.url, query: r.query, params: {} } as unknown as Request;
    const res = { locals: {} } as Response;
    await new Promise<void>((done) => lookup(req, res, () => done()));
  }
  return ((performance.now() - started) * 1e6) / count;
};
const viaRule = (): number => {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < count; i++) sum += formerRule(requests[i % requests.length]!).length;
  if (sum < 0) console.log(sum);
  return ((performance.now() - started) * 1e6) / count;
};
const lookups: number[] = [];
const rules: number[] = [];
for (let round = 0; round < 3; round++) {
  rules.push(viaRule());
  lookups.push(await viaLookup());
}
console.log(`${registry.routes.length} routes, ${count} requests a round, 3 rounds alternated`);
console.log(`former URL rule: ${rules.map((n) => n.toFixed(0)).join(', ')} ns/request`);
console.log(`route lookup:    ${lookups.map((n) => n.toFixed(0)).join(', ')} ns/request`);
await registry.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
