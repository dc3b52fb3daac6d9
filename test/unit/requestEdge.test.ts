import { expect } from 'chai';
import type { Request, Response, Router } from 'express';
import { rejections } from '../../src/domain/rejections.js';
import { itemRefs, resolveItem } from '../../src/domain/projects/itemRefs.js';
import { NOTHING } from '../../src/http/reads.js';
import { parseIndexing } from '../../src/http/requestEdge.js';
import type { RequestEdge } from '../../src/http/requestEdge.js';
import type { Context, Endpoint } from '../../src/http/route.js';
import { Routes } from '../../src/http/route.js';
import type { AclCheck } from '../../src/kernel/AclCheck.js';
import type { Caller } from '../../src/kernel/Caller.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { UNCONSTRAINED } from '../../src/kernel/vocabulary.js';

const alice: Caller = { subject: 'realms/r/users/alice', identities: [] };
const open: AclCheck = { authorize: async () => undefined, access: async () => ({ mode: 'all' }) };
const project = { base: 'http://base.org/', apiMappings: [{ prefix: 'ex', namespace: 'http://ex.org/' }] };
const projects = {
  fetch: (ref: string) => {
    if (ref !== 'o/p') throw rejections.projectNotFound(ref);
    return project;
  },
};

const typeOf = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect(error).to.be.instanceOf(Rejection);
    return (error as Rejection).type;
  }
  throw new Error('expected a rejection');
};

/** Runs one endpoint at `path` over a request whose raw URL is `url`, as Express would, with the edge given. */
const run = (path: string, url: string, params: Record<string, string>, endpoint: Pick<Endpoint, 'item' | 'indexing'>, edge: RequestEdge) =>
  new Promise<{ ctx?: Context; error?: unknown; under?: string }>((resolve) => {
    const installed: ((req: Request, res: Response, next: (e?: unknown) => void) => void)[] = [];
    const router = { route: () => ({ get: (...handlers: typeof installed) => installed.push(handlers.at(-1)!), all: () => undefined }) } as unknown as Router;
    let under: string | undefined;
    const traced: RequestEdge = {
      ...edge,
      indexing: (mode, write) => {
        under = mode;
        return write();
      },
    };
    new Routes(open, { none: [], json: [] } as never, undefined, traced).add(router, path, {
      get: { guard: { public: true }, reads: NOTHING, body: 'none', ...endpoint, handle: (_req, _res, ctx) => resolve({ ctx, under }) },
    });
    const [, query = ''] = url.split('?');
    const req = { route: { path }, originalUrl: url, params, query: Object.fromEntries(new URLSearchParams(query)) } as unknown as Request;
    const res = { locals: { caller: alice } } as unknown as Response;
    installed[0]!(req, res, (error) => resolve({ error }));
  });

describe('the request edge: items and indexing parsed once, as each route declares them', () => {
  it('resolves an id segment as the project resolves it: aliases, CURIEs, absolute IRIs, else relative to the base', () => {
    expect(resolveItem(project, 'o/p', { id: 'ex:a' })).to.deep.equal({ project: 'o/p', id: 'http://ex.org/a' });
    expect(resolveItem(project, 'o/p', { id: 'http://x.org/y' }).id).to.equal('http://x.org/y');
    expect(resolveItem(project, 'o/p', { id: 'r1' }).id).to.equal('http://base.org/r1');
    expect(resolveItem(project, 'o/p', { id: '_' }).id).to.equal(UNCONSTRAINED);
  });

  it('reads a `_` schema segment as no schema, and resolves any other', () => {
    expect(resolveItem(project, 'o/p', { schema: '_', id: 'r1' })).to.deep.equal({ project: 'o/p', id: 'http://base.org/r1' });
    expect(resolveItem(project, 'o/p', { schema: 'ex:s', id: 'r1' }).schema).to.equal('http://ex.org/s');
    expect(resolveItem(project, 'o/p', { schema: 'ex:s' })).to.deep.equal({ project: 'o/p', schema: 'http://ex.org/s' });
  });

  it('refuses a segment that is no usable IRI (InvalidResourceId), the id before the schema, and an unknown project', () => {
    expect(typeOf(() => resolveItem(project, 'o/p', { id: '' }))).to.equal('InvalidResourceId');
    expect(typeOf(() => resolveItem(project, 'o/p', { schema: 'ex:s', id: 'a<b' }))).to.equal('InvalidResourceId');
    expect(typeOf(() => itemRefs(projects)('o/q', { id: 'r1' }))).to.equal('ProjectNotFound');
  });

  it("applies a kind's own rules: its rejection of a segment that is no IRI, and its aliases before the mappings", () => {
    const rules = { invalidId: (v: string) => new Rejection('InvalidViewId', v), alias: (v: string) => (v === 'graph' ? 'http://default/sparql' : undefined) };
    expect(resolveItem(project, 'o/p', { id: 'graph' }, rules).id).to.equal('http://default/sparql');
    expect(resolveItem(project, 'o/p', { id: 'ex:v' }, rules).id).to.equal('http://ex.org/v');
    expect(typeOf(() => resolveItem(project, 'o/p', { id: 'a<b' }, rules))).to.equal('InvalidViewId');
    // Without an alias the segment is resolved as any other; without rules, `graph` is relative to the base.
    expect(resolveItem(project, 'o/p', { id: 'graph' }).id).to.equal('http://base.org/graph');
    const routed = run(
      '/v1/views/:org/:project/:id',
      '/v1/views/o/p/a%3Cb',
      { org: 'o', project: 'p', id: 'a<b' },
      { item: { id: 'id', rules } },
      { items: itemRefs(projects) },
    );
    return routed.then(({ error }) => expect((error as Rejection).type).to.equal('InvalidViewId'));
  });

  it('parses `indexing`: sync by default, async or sync, anything else refused', () => {
    expect(parseIndexing({})).to.equal('sync');
    expect(parseIndexing({ indexing: 'async' })).to.equal('async');
    expect(parseIndexing({ indexing: 'sync' })).to.equal('sync');
    expect(typeOf(() => parseIndexing({ indexing: 'now' }))).to.equal('MalformedQueryParamRejection');
    expect(typeOf(() => parseIndexing({ indexing: ['sync', 'async'] }))).to.equal('MalformedQueryParamRejection');
  });

  it('hands the handler the resolved item of a route that declares it, decoded from the raw path (`+` a space)', async () => {
    const path = '/v1/resources/:org/:project/:schema/:id';
    const { ctx } = await run(
      path,
      '/v1/resources/o/p/ex:s/a+b%2Bc',
      { org: 'o', project: 'p', schema: 'ex:s', id: 'a b+c' },
      { item: { schema: 'schema', id: 'id' } },
      { items: itemRefs(projects) },
    );
    expect(ctx?.item).to.deep.equal({ project: 'o/p', id: 'http://base.org/a b+c', schema: 'http://ex.org/s' });
    expect(ctx?.indexing).to.equal('sync');
  });

  it('refuses before the handler runs: an unknown project, an id that is no IRI', async () => {
    const path = '/v1/schemas/:org/:project/:id';
    const unknown = await run(path, '/v1/schemas/o/q/s', { org: 'o', project: 'q', id: 's' }, { item: { id: 'id' } }, { items: itemRefs(projects) });
    expect((unknown.error as Rejection).type).to.equal('ProjectNotFound');
    const bad = await run(path, '/v1/schemas/o/p/%E0%A4%A', { org: 'o', project: 'p', id: 'x' }, { item: { id: 'id' } }, { items: itemRefs(projects) });
    expect((bad.error as Rejection).type).to.equal('InvalidResourceId');
  });

  it('runs a write that declares `indexing` under the mode the request asks for, and refuses a bad one before it runs', async () => {
    const path = '/v1/things/:org/:project';
    const params = { org: 'o', project: 'p' };
    const asked = await run(path, '/v1/things/o/p?indexing=async', params, { indexing: true }, {});
    expect(asked.ctx?.indexing).to.equal('async');
    expect(asked.under).to.equal('async');
    const bad = await run(path, '/v1/things/o/p?indexing=later', params, { indexing: true }, {});
    expect((bad.error as Rejection).type).to.equal('MalformedQueryParamRejection');
    // A route that takes no `indexing` ignores it, and runs as a sync request.
    const ignored = await run(path, '/v1/things/o/p?indexing=later', params, {}, {});
    expect(ignored.ctx?.indexing).to.equal('sync');
    expect(ignored.under).to.equal(undefined);
  });
});
