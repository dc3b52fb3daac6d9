import { expect } from 'chai';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Routes } from '../../src/http/route.js';
import { CallerConcurrency } from '../../src/http/CallerConcurrency.js';
import { InProcessShares } from '../../src/http/CostlyShares.js';
import { NOTHING } from '../../src/http/reads.js';
import { bodyReaders } from '../../src/http/bodyReader.js';
import { errorMiddleware } from '../../src/http/errorMiddleware.js';
import { anonymousCaller } from '../../src/kernel/Caller.js';
import { consoleLog } from '../../src/kernel/Log.js';
import type { AclCheck } from '../../src/kernel/AclCheck.js';

const PER_CALLER = 4;

/**
 * The caller's share of costly requests (COSTLY_PER_CALLER, default 4), made deterministic by
 * ordering: the route's handler holds each request until the test releases it, so "in flight" is
 * known exactly, whatever the machine's speed.
 */
describe('costly requests: COSTLY_PER_CALLER in flight pass, one more is 429 TooManyRequests', () => {
  let server: Server;
  let base: string;
  const entered: string[] = [];
  const gates = new Map<string, () => void>();
  let waiting: { count: number; resolve: () => void } | undefined;
  const enteredCount = (count: number) => (entered.length >= count ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { count, resolve })));

  before(async () => {
    // A public route never asks the ACL check.
    const routes = new Routes({} as AclCheck, bodyReaders({ json: 1024 }), new CallerConcurrency(new InProcessShares(PER_CALLER)));
    const app = express();
    app.use((_req, res, next) => ((res.locals['caller'] = anonymousCaller), next()));
    const router = express.Router();
    routes.add(router, '/costly/:name', {
      get: {
        guard: { public: true },
        reads: NOTHING,
        body: 'none',
        costly: true,
        handle: async (req, res) => {
          const name = req.params['name'] as string;
          entered.push(name);
          if (waiting && entered.length >= waiting.count) waiting.resolve();
          await new Promise<void>((release) => gates.set(name, release));
          res.json({ name });
        },
      },
    });
    routes.add(router, '/cheap', { get: { guard: { public: true }, reads: NOTHING, body: 'none', handle: (_req, res) => void res.json({ ok: true }) } });
    app.use(router);
    app.use(errorMiddleware(consoleLog));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));

  it(`admits ${PER_CALLER - 1} then ${PER_CALLER} in flight, refuses the next with 429 TooManyRequests and Retry-After, and admits one again once one ends`, async () => {
    const get = (path: string) => fetch(`${base}${path}`);
    const first = Array.from({ length: PER_CALLER - 1 }, (_, i) => get(`/costly/r${i}`));
    await enteredCount(PER_CALLER - 1);
    const last = get(`/costly/r${PER_CALLER - 1}`);
    await enteredCount(PER_CALLER);
    // Cheap requests are not counted.
    expect((await get('/cheap')).status).to.equal(200);

    const over = await get('/costly/over');
    expect([over.status, over.headers.get('retry-after')]).to.deep.equal([429, '1']);
    const body = (await over.json()) as { '@type': string; limit: number };
    expect([body['@type'], body.limit]).to.deep.equal(['TooManyRequests', PER_CALLER]);
    // The refused request never reached the handler and took no share.
    expect(entered).to.deep.equal(Array.from({ length: PER_CALLER }, (_, i) => `r${i}`));

    gates.get('r0')!();
    expect((await (await first[0]!).json()) as unknown).to.deep.equal({ name: 'r0' });
    const again = get('/costly/again');
    await enteredCount(PER_CALLER + 1);
    expect(entered.at(-1)).to.equal('again');
    expect((await get('/costly/over2')).status).to.equal(429);

    for (const name of [...Array.from({ length: PER_CALLER - 1 }, (_, i) => `r${i + 1}`), 'again']) gates.get(name)!();
    const answers = await Promise.all([...first.slice(1), last, again]);
    expect(answers.map((r) => r.status)).to.deep.equal(Array.from({ length: PER_CALLER }, () => 200));
    // Every share was given back.
    const fresh = Array.from({ length: PER_CALLER }, (_, i) => get(`/costly/f${i}`));
    await enteredCount(PER_CALLER * 2 + 1);
    for (let i = 0; i < PER_CALLER; i++) gates.get(`f${i}`)!();
    expect((await Promise.all(fresh)).map((r) => r.status)).to.deep.equal(Array.from({ length: PER_CALLER }, () => 200));
  });
});
