import { expect } from 'chai';
import { PERMISSIONS } from '../../src/kernel/permissions.js';
import { ROUTE_SUMMARIES } from '../../src/http/openapi/routeSummaries.js';
import type { TestServer } from '../support/server.js';
import { serve } from '../support/server.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every method handled by the router, as `METHOD path`, found by walking express' layers. */
const served = (layers: Layer[]): string[] =>
  layers.flatMap((layer) => {
    if (layer.route)
      return Object.keys(layer.route.methods)
        .filter((m) => m !== '_all')
        .map((m) => `${m.toUpperCase()} ${layer.route!.path}`);
    return layer.handle.stack ? served(layer.handle.stack) : [];
  });

describe('route table', () => {
  let server: TestServer;
  serve((s) => (server = s));

  it('declares a known permission (or says public), an ACL path and a body kind for every route the router serves', () => {
    const declared = new Map(server.registry.routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r]));
    const routes = served((server.registry.app as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(routes.length).to.be.greaterThan(40);
    for (const route of routes) {
      const entry = declared.get(route);
      expect(entry, `${route} is served without a declaration`).to.not.equal(undefined);
      const guard = entry!.guard;
      if ('public' in guard) continue;
      const permissions =
        typeof guard.permission === 'string'
          ? [guard.permission, ...('or' in guard && guard.or ? [guard.or] : [])]
          : [guard.permission.create, guard.permission.update];
      for (const p of permissions) expect(PERMISSIONS, route).to.include(p);
      expect(['json', 'none', 'multipart', 'sparql'], route).to.include(entry!.body);
    }
  });

  it('reads a body only where a route declares one', () => {
    // Multi-fetch takes its JSON body on GET too, as existing clients send it (wire-search-query.md).
    const bodies = server.registry.routes.filter((r) => r.body === 'json' && r.path !== '/v1/multi-fetch/resources').map((r) => r.method);
    expect(bodies).to.not.include('get');
    expect(bodies).to.not.include('head');
  });

  it('documents every route in /v1/openapi.json (OpenAPI 3.1), and nothing that is not served', async () => {
    const res = await fetch(`${server.url}/v1/openapi.json`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { summary: string }>> };
    expect(doc.openapi).to.equal('3.1.0');
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{([A-Za-z]+)\}/g, ':$1')}`),
    );
    const served = server.registry.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect([...new Set(documented)].sort()).to.deep.equal([...new Set(served)].sort());
    for (const [path, ops] of Object.entries(doc.paths)) for (const [m, op] of Object.entries(ops)) expect(op.summary, `${m} ${path}`).to.not.equal('');
    // Routes declare their summary, or the shared table has it; the table names no route that is not served.
    const undeclared = server.registry.routes.filter((r) => r.summary === undefined).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    for (const route of undeclared) expect(ROUTE_SUMMARIES, route).to.have.property(route);
    for (const route of Object.keys(ROUTE_SUMMARIES)) expect(served, route).to.include(route);
  });
});
