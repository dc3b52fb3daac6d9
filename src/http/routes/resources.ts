import type { Request, Router } from 'express';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { ResourceQueries } from '../../catalogue/ResourceQueries.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { bool, indexing } from '../params.js';
import { annotatedSource, resourceBody, resourceMetadata } from '../render/resources.js';
import { onOrg, onProject, onRoot, projectOf, segment } from '../route.js';
import type { Endpoint, Handler, Routes } from '../route.js';
import { itemHandlers } from './itemHandlers.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { FETCH, LINKS, LISTING, STATES } from '../reads.js';
import type { Reads } from '../reads.js';

interface Deps {
  resources: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  addresses: Addresses;
}

const R = '/v1/resources/:org/:project/:schema/:id';

const ref = projectOf;
const schemaOf = (req: Request) => segment(req, 'schema');
const idOf = (req: Request) => segment(req, 'id');
const at = (req: Request) => ({ ref: ref(req), schema: schemaOf(req), id: idOf(req) });

/** Spec §5: reading needs `resources/read`, writing `resources/write`, both on the project. */
const read = (handle: Handler, reads: Reads = FETCH): Endpoint => ({ guard: { permission: 'resources/read', on: onProject }, reads, body: 'none', handle });
const write = (handle: Handler, body: 'json' | 'none' = 'json'): Endpoint => ({
  guard: { permission: 'resources/write', on: onProject },
  reads: STATES,
  body,
  handle,
});

export const resourceRoutes = (routes: Routes, router: Router, { resources, queries, jsonld, addresses }: Deps): void => {
  const h = itemHandlers(
    {
      service: resources,
      queries,
      jsonld,
      addresses,
      kind: 'resources',
      render: { metadata: resourceMetadata, body: resourceBody, annotated: annotatedSource },
    },
    at,
  );

  routes.add(router, '/v1/resources', {
    get: { guard: { permission: 'resources/read', within: onRoot }, reads: LISTING, body: 'none', handle: h.list(() => ({ kind: 'resources' })) },
  });
  routes.add(router, '/v1/resources/:org', {
    get: {
      guard: { permission: 'resources/read', within: onOrg },
      reads: LISTING,
      body: 'none',
      handle: h.list((req) => ({ kind: 'resources', org: req.params['org'] as string })),
    },
  });
  routes.add(router, '/v1/resources/:org/:project', {
    get: read(
      h.list((req) => ({ kind: 'resources', project: ref(req) })),
      LISTING,
    ),
    post: write((req, res, ctx) => h.create(req, res, ctx, ref(req), '_', undefined)),
  });
  routes.add(router, '/v1/resources/:org/:project/:schema', {
    get: read(
      h.list((req) => ({ kind: 'resources', project: ref(req), schemaSegment: schemaOf(req) })),
      LISTING,
    ),
    post: write((req, res, ctx) => h.create(req, res, ctx, ref(req), schemaOf(req), undefined)),
  });
  routes.add(router, `${R}/incoming`, { get: read(h.incoming, LINKS) });
  routes.add(router, `${R}/outgoing`, { get: read(h.outgoing, LINKS) });
  routes.add(router, R, {
    get: read(h.fetch),
    put: write(h.put),
    delete: write(async (req, res, ctx) => {
      if (bool(req.query, 'prune') !== true) return h.deprecate(req, res, ctx);
      indexing(req.query);
      await resources.delete(ref(req), schemaOf(req), idOf(req), ctx.caller);
      res.status(204).end();
    }, 'none'),
  });
  routes.add(router, `${R}/source`, { get: read(h.source) });
  routes.add(router, `${R}/remote-contexts`, { get: read(h.remoteContexts) });
  routes.add(router, `${R}/tags`, { get: read(h.tags), post: write(h.tag) });
  routes.add(router, `${R}/tags/:tag`, { delete: write(h.deleteTag, 'none') });
  routes.add(router, `${R}/refresh`, { put: write(h.refresh, 'none') });
  routes.add(router, `${R}/undeprecate`, { put: write(h.undeprecate, 'none') });
  routes.add(router, `${R}/update-schema`, {
    put: write(async (req, res, ctx) => {
      indexing(req.query);
      h.written(res, 200)(await resources.updateSchema(ref(req), schemaOf(req), idOf(req), ctx.caller));
    }, 'none'),
  });
  routes.add(router, `${R}/validate`, {
    get: read(async (req, res) => {
      const report = await resources.validate(ref(req), schemaOf(req), idOf(req));
      res.type('application/ld+json').send(JSON.stringify(report.json));
    }),
  });
};
