import type { Request, Router } from 'express';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { ResourceQueries } from '../../catalogue/ResourceQueries.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { bool } from '../params.js';
import { annotatedSource, resourceBody, resourceMetadata } from '../render/resources.js';
import { itemOf, onOrg, onRoot, projectOf, segment } from '../route.js';
import type { Routes } from '../route.js';
import { kindEndpoints } from '../projectEndpoints.js';
import { itemHandlers } from './itemHandlers.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { LINKS, LISTING } from '../reads.js';
import type { ItemPath } from '../requestEdge.js';

interface Deps {
  resources: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  addresses: Addresses;
}

const R = '/v1/resources/:org/:project/:schema/:id';

const ref = projectOf;
const schemaOf = (req: Request) => segment(req, 'schema');
/** The item of `R`: its schema segment and its id segment. */
const ITEM: ItemPath = { schema: 'schema', id: 'id' };

/** Spec §5: reading needs `resources/read`, writing `resources/write`, both on the project. */
const { read, write } = kindEndpoints('resources/read', 'resources/write', ITEM);

export const resourceRoutes = (routes: Routes, router: Router, { resources, queries, jsonld, addresses }: Deps): void => {
  const h = itemHandlers({
    service: resources,
    queries,
    jsonld,
    addresses,
    kind: 'resources',
    render: { metadata: resourceMetadata, body: resourceBody, annotated: annotatedSource },
  });

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
      false,
    ),
    post: write(h.create, 'json', {}),
  });
  routes.add(router, '/v1/resources/:org/:project/:schema', {
    get: read(
      h.list((req) => ({ kind: 'resources', project: ref(req), schemaSegment: schemaOf(req) })),
      LISTING,
      false,
    ),
    post: write(h.create, 'json', { schema: 'schema' }),
  });
  routes.add(router, `${R}/incoming`, { get: read(h.incoming, LINKS) });
  routes.add(router, `${R}/outgoing`, { get: read(h.outgoing, LINKS) });
  routes.add(router, R, {
    get: read(h.fetch),
    put: write(h.put),
    delete: write(async (req, res, ctx) => {
      if (bool(req.query, 'prune') !== true) return h.deprecate(req, res, ctx);
      await resources.delete(itemOf(ctx), ctx.caller);
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
    put: write(async (_req, res, ctx) => {
      h.written(res, 200)(await resources.updateSchema(itemOf(ctx), ctx.caller));
    }, 'none'),
  });
  routes.add(router, `${R}/validate`, {
    get: read(async (_req, res, ctx) => {
      const report = await resources.validate(itemOf(ctx));
      res.type('application/ld+json').send(JSON.stringify(report.json));
    }),
  });
};
