import type { Request, Router } from 'express';
import type { ResourceQueries } from '../../domain/resources/ResourceQueries.js';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { annotatedSchema, schemaBody, schemaMetadata } from '../render/schemas.js';
import { projectOf, route, segment } from '../route.js';
import { itemHandlers } from './itemHandlers.js';

interface Deps {
  schemas: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  baseUrl: string;
}

const S = '/v1/schemas/:org/:project/:id';

const ref = projectOf;
/** Schema paths have no schema segment: `_` reads as the SHACL schema every schema is constrained by. */
const at = (req: Request) => ({ ref: ref(req), schema: '_', id: segment(req, 'id') });

/** Spec 4.3: the schema lifecycle, listings at three scopes, and the link listings `_incoming`/`_outgoing` name. */
export const schemaRoutes = (router: Router, { schemas, queries, jsonld, baseUrl }: Deps): void => {
  const h = itemHandlers(
    { service: schemas, queries, jsonld, baseUrl, kind: 'schemas', render: { metadata: schemaMetadata, body: schemaBody, annotated: annotatedSchema } },
    at,
  );
  route(router, '/v1/schemas', { get: h.list(() => ({ kind: 'schemas' })) });
  route(router, '/v1/schemas/:org', { get: h.list((req) => ({ kind: 'schemas', org: req.params['org'] as string })) });
  route(router, '/v1/schemas/:org/:project', {
    get: h.list((req) => ({ kind: 'schemas', project: ref(req) })),
    post: (req, res) => h.create(req, res, ref(req), '_', undefined),
  });
  route(router, S, { get: h.fetch, put: h.put, delete: h.deprecate });
  route(router, `${S}/source`, { get: h.source });
  route(router, `${S}/tags`, { get: h.tags, post: h.tag });
  route(router, `${S}/tags/:tag`, { delete: h.deleteTag });
  route(router, `${S}/refresh`, { put: h.refresh });
  route(router, `${S}/undeprecate`, { put: h.undeprecate });
  route(router, `${S}/incoming`, { get: h.incoming });
  route(router, `${S}/outgoing`, { get: h.outgoing });
};
