import type { Request, Router } from 'express';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { ResourceQueries } from '../../domain/resources/ResourceQueries.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { callerOf } from '../caller.js';
import { bool, indexing } from '../params.js';
import { annotatedSource, resourceBody, resourceMetadata } from '../render/resources.js';
import { projectOf, route, segment } from '../route.js';
import { itemHandlers } from './itemHandlers.js';

interface Deps {
  resources: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  baseUrl: string;
}

const R = '/v1/resources/:org/:project/:schema/:id';

const ref = projectOf;
const schemaOf = (req: Request) => segment(req, 'schema');
const idOf = (req: Request) => segment(req, 'id');
const at = (req: Request) => ({ ref: ref(req), schema: schemaOf(req), id: idOf(req) });

export const resourceRoutes = (router: Router, { resources, queries, jsonld, baseUrl }: Deps): void => {
  const h = itemHandlers(
    { service: resources, queries, jsonld, baseUrl, kind: 'resources', render: { metadata: resourceMetadata, body: resourceBody, annotated: annotatedSource } },
    at,
  );

  route(router, '/v1/resources', { get: h.list(() => ({ kind: 'resources' })) });
  route(router, '/v1/resources/:org', { get: h.list((req) => ({ kind: 'resources', org: req.params['org'] as string })) });
  route(router, '/v1/resources/:org/:project', {
    get: h.list((req) => ({ kind: 'resources', project: ref(req) })),
    post: (req, res) => h.create(req, res, ref(req), '_', undefined),
  });
  route(router, '/v1/resources/:org/:project/:schema', {
    get: h.list((req) => ({ kind: 'resources', project: ref(req), schemaSegment: schemaOf(req) })),
    post: (req, res) => h.create(req, res, ref(req), schemaOf(req), undefined),
  });
  route(router, `${R}/incoming`, { get: h.incoming });
  route(router, `${R}/outgoing`, { get: h.outgoing });
  route(router, R, {
    get: h.fetch,
    put: h.put,
    delete: async (req, res) => {
      if (bool(req.query, 'prune') !== true) return h.deprecate(req, res);
      indexing(req.query);
      await resources.delete(ref(req), schemaOf(req), idOf(req), callerOf(req));
      res.status(204).end();
    },
  });
  route(router, `${R}/source`, { get: h.source });
  route(router, `${R}/remote-contexts`, { get: h.remoteContexts });
  route(router, `${R}/tags`, { get: h.tags, post: h.tag });
  route(router, `${R}/tags/:tag`, { delete: h.deleteTag });
  route(router, `${R}/refresh`, { put: h.refresh });
  route(router, `${R}/undeprecate`, { put: h.undeprecate });
  route(router, `${R}/update-schema`, {
    put: async (req, res) => {
      indexing(req.query);
      h.written(res, 200)(await resources.updateSchema(ref(req), schemaOf(req), idOf(req), callerOf(req)));
    },
  });
  route(router, `${R}/validate`, {
    get: async (req, res) => {
      const report = await resources.validate(ref(req), schemaOf(req), idOf(req));
      res.type('application/ld+json').send(JSON.stringify(report.json));
    },
  });
};
