import type { Router } from 'express';
import type { ResourceQueries } from '../../catalogue/ResourceQueries.js';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { annotatedSchema, schemaBody, schemaMetadata } from '../render/schemas.js';
import { onOrg, onRoot, projectOf } from '../route.js';
import type { Routes } from '../route.js';
import { kindEndpoints } from '../projectEndpoints.js';
import { itemHandlers } from './itemHandlers.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { LINKS, LISTING } from '../reads.js';
import type { ItemPath } from '../requestEdge.js';

interface Deps {
  schemas: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  addresses: Addresses;
}

const S = '/v1/schemas/:org/:project/:id';

const ref = projectOf;
/** Schema paths have no schema segment: as `_`, the SHACL schema every schema is constrained by. */
const ITEM: ItemPath = { id: 'id' };

/** Spec §5: schemas are read with `resources/read` and written with `schemas/write`, on the project. */
const { read, write } = kindEndpoints('resources/read', 'schemas/write', ITEM);

/** Spec 4.3: the schema lifecycle, listings at three scopes, and the link listings `_incoming`/`_outgoing` name. */
export const schemaRoutes = (routes: Routes, router: Router, { schemas, queries, jsonld, addresses }: Deps): void => {
  const h = itemHandlers({
    service: schemas,
    queries,
    jsonld,
    addresses,
    kind: 'schemas',
    render: { metadata: schemaMetadata, body: schemaBody, annotated: annotatedSchema },
  });
  routes.add(router, '/v1/schemas', {
    get: { guard: { permission: 'resources/read', within: onRoot }, reads: LISTING, body: 'none', handle: h.list(() => ({ kind: 'schemas' })) },
  });
  routes.add(router, '/v1/schemas/:org', {
    get: {
      guard: { permission: 'resources/read', within: onOrg },
      reads: LISTING,
      body: 'none',
      handle: h.list((req) => ({ kind: 'schemas', org: req.params['org'] as string })),
    },
  });
  routes.add(router, '/v1/schemas/:org/:project', {
    get: read(
      h.list((req) => ({ kind: 'schemas', project: ref(req) })),
      LISTING,
      false,
    ),
    post: write(h.create, 'json', {}),
  });
  routes.add(router, S, { get: read(h.fetch), put: write(h.put), delete: write(h.deprecate, 'none') });
  routes.add(router, `${S}/source`, { get: read(h.source) });
  routes.add(router, `${S}/tags`, { get: read(h.tags), post: write(h.tag) });
  routes.add(router, `${S}/tags/:tag`, { delete: write(h.deleteTag, 'none') });
  routes.add(router, `${S}/refresh`, { put: write(h.refresh, 'none') });
  routes.add(router, `${S}/undeprecate`, { put: write(h.undeprecate, 'none') });
  routes.add(router, `${S}/incoming`, { get: read(h.incoming, LINKS) });
  routes.add(router, `${S}/outgoing`, { get: read(h.outgoing, LINKS) });
};
