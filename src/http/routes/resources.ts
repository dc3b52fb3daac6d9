import type { Request, Response, Router } from 'express';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import type { LinkEntry, ResourceQueries } from '../../domain/resources/ResourceQueries.js';
import { integer } from '../params.js';
import { listingRequest, nextAddress } from '../listingParams.js';
import type { Scope } from '../listingParams.js';
import { aggregationsBody, listingBody } from '../render/listing.js';
import { typesValue } from '../render/resources.js';
import type { Revision } from '../../domain/resources/RevisionReader.js';
import { projectRef } from '../../domain/labels.js';
import { rejections } from '../../domain/rejections.js';
import { context } from '../../domain/vocabulary.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { revisionGraph } from '../../store/graphNames.js';
import { callerOf } from '../caller.js';
import { bool, indexing, requiredRev, selector, single, tagName, validTag } from '../params.js';
import { dot, inGraph, metadataTriples } from '../render/rdfFormats.js';
import { annotatedSource, resourceBody, resourceMetadata } from '../render/resources.js';
import { route, segment } from '../route.js';

interface Deps {
  resources: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  baseUrl: string;
}

const R = '/v1/resources/:org/:project/:schema/:id';

const ref = (req: Request) => projectRef(req.params['org'] as string, req.params['project'] as string);
const schemaOf = (req: Request) => segment(req, 'schema');
const idOf = (req: Request) => segment(req, 'id');

const REPRESENTATIONS = ['application/ld+json', 'application/json', 'application/n-triples', 'application/n-quads', 'text/vnd.graphviz'];

/** The tag body of `POST .../tags`: `{"tag": "v1", "rev": 1}`. */
const tagBody = (body: unknown): { tag: string; rev: number } => {
  const b = body as { tag?: unknown; rev?: unknown } | undefined;
  if (!b || typeof b !== 'object' || typeof b.tag !== 'string' || !validTag(b.tag) || typeof b.rev !== 'number' || !Number.isInteger(b.rev))
    throw rejections.malformedContent('The tag payload must be {"tag": <non-empty string>, "rev": <integer>}.');
  return { tag: b.tag, rev: b.rev };
};

export const resourceRoutes = (router: Router, { resources, queries, jsonld, baseUrl }: Deps): void => {
  const list = (scope: (req: Request) => Scope) => async (req: Request, res: Response) => {
    const request = listingRequest(req, scope(req));
    if (bool(req.query, 'aggregations') === true) {
      res.type('application/ld+json').send(JSON.stringify(aggregationsBody(await queries.aggregate(request))));
      return;
    }
    const page = await queries.list(request);
    const body = listingBody(page.total, page.items.map((s) => resourceMetadata(s, baseUrl)), page.next && nextAddress(baseUrl, req, page.next));
    res.type('application/ld+json').send(JSON.stringify(body));
  };

  /** Link listings: known resources carry their metadata, external IRIs only `@id` and `paths`. */
  const links = (entries: { total: number; items: LinkEntry[] }, req: Request, from: number, size: number) => {
    const results = entries.items.map((e) =>
      e.state ? { '@id': e.id, ...typesValue(e.state.types), paths: e.paths, ...resourceMetadata(e.state, baseUrl) } : { '@id': e.id, paths: e.paths },
    );
    const url = new URL(req.originalUrl, 'http://placeholder');
    url.searchParams.set('from', String(from + size));
    url.searchParams.set('size', String(size));
    return listingBody(entries.total, results, from + size < entries.total ? `${baseUrl}${url.pathname}${url.search}` : undefined);
  };
  const paging = (req: Request) => ({ from: integer(req.query, 'from', 0, 10_000) ?? 0, size: integer(req.query, 'size', 1, 1000) ?? 20 });

  route(router, '/v1/resources', { get: list(() => ({ kind: 'resources' })) });
  route(router, '/v1/resources/:org', { get: list((req) => ({ kind: 'resources', org: req.params['org'] as string })) });
  const written = (res: Response, status: number) => (state: Parameters<typeof resourceMetadata>[0]) =>
    void res.status(status).type('application/ld+json').send(JSON.stringify(resourceMetadata(state, baseUrl)));

  /** Fetch in the representation the client accepts. */
  const represent = async (req: Request, res: Response, revision: Revision) => {
    const type = req.accepts(REPRESENTATIONS);
    if (!type) throw rejections.notAcceptable(REPRESENTATIONS);
    res.vary('Accept');
    const { state, content } = revision;
    if (type === 'application/ld+json' || type === 'application/json') {
      const body = resourceBody(state, await resources.compact(revision), baseUrl);
      res.type(type).send(JSON.stringify(body));
      return;
    }
    const triples = (await jsonld.toNQuads(content.expanded)) + metadataTriples(state, baseUrl);
    if (type === 'application/n-triples') res.type(type).send(triples);
    else if (type === 'application/n-quads') res.type(type).send(inGraph(triples, revisionGraph('resources', state.project, state.id, state.rev)));
    else res.type(type).send(dot(state.id, triples));
  };

  const create = async (req: Request, res: Response, schema: string, id: string | undefined) => {
    indexing(req.query);
    const state = await resources.create(ref(req), schema, id, req.body, tagName(req.query), callerOf(req));
    written(res, 201)(state);
  };

  route(router, '/v1/resources/:org/:project', {
    get: list((req) => ({ kind: 'resources', project: ref(req) })),
    post: (req, res) => create(req, res, '_', undefined),
  });
  route(router, '/v1/resources/:org/:project/:schema', {
    get: list((req) => ({ kind: 'resources', project: ref(req), schemaSegment: schemaOf(req) })),
    post: (req, res) => create(req, res, schemaOf(req), undefined),
  });
  route(router, `${R}/incoming`, {
    get: async (req, res) => {
      const { from, size } = paging(req);
      const entries = await queries.incoming(ref(req), schemaOf(req), idOf(req), from, size);
      res.type('application/ld+json').send(JSON.stringify(links(entries, req, from, size)));
    },
  });
  route(router, `${R}/outgoing`, {
    get: async (req, res) => {
      const { from, size } = paging(req);
      const entries = await queries.outgoing(ref(req), schemaOf(req), idOf(req), from, size, bool(req.query, 'includeExternalLinks') ?? true);
      res.type('application/ld+json').send(JSON.stringify(links(entries, req, from, size)));
    },
  });
  route(router, R, {
    get: async (req, res) => represent(req, res, await resources.fetch(ref(req), schemaOf(req), idOf(req), selector(req.query))),
    put: async (req, res) => {
      const rev = single(req.query, 'rev');
      if (rev === undefined) return create(req, res, schemaOf(req), idOf(req));
      indexing(req.query);
      written(res, 200)(await resources.update(ref(req), schemaOf(req), idOf(req), req.body, requiredRev(req.query), tagName(req.query), callerOf(req)));
    },
    delete: async (req, res) => {
      indexing(req.query);
      if (bool(req.query, 'prune') === true) {
        await resources.delete(ref(req), schemaOf(req), idOf(req), callerOf(req));
        res.status(204).end();
        return;
      }
      written(res, 200)(await resources.deprecate(ref(req), schemaOf(req), idOf(req), requiredRev(req.query), callerOf(req)));
    },
  });
  route(router, `${R}/source`, {
    get: async (req, res) => {
      const annotate = bool(req.query, 'annotate') ?? false;
      const { state, content } = await resources.fetch(ref(req), schemaOf(req), idOf(req), selector(req.query));
      res.vary('Accept');
      res.type('application/ld+json').send(JSON.stringify(annotate ? annotatedSource(state, content.source, baseUrl) : content.source));
    },
  });
  route(router, `${R}/remote-contexts`, {
    get: async (req, res) => {
      const { content } = await resources.fetch(ref(req), schemaOf(req), idOf(req), selector(req.query));
      const remoteContexts = content.remoteContexts.map((r) =>
        r.type === 'StaticContextRef' ? { '@type': r.type, iri: r.iri } : { '@type': r.type, iri: r.iri, resource: r.resource },
      );
      res.type('application/ld+json').send(JSON.stringify({ '@context': context('remote-contexts'), remoteContexts }));
    },
  });
  route(router, `${R}/tags`, {
    get: async (req, res) => {
      const { state } = await resources.fetch(ref(req), schemaOf(req), idOf(req), selector(req.query));
      const tags = Object.entries(state.tags)
        .map(([tag, rev]) => ({ rev, tag }))
        .sort((a, b) => a.rev - b.rev || a.tag.localeCompare(b.tag));
      res.type('application/ld+json').send(JSON.stringify({ '@context': context('tags'), tags }));
    },
    post: async (req, res) => {
      indexing(req.query);
      const rev = requiredRev(req.query);
      const body = tagBody(req.body);
      written(res, 201)(await resources.tag(ref(req), schemaOf(req), idOf(req), rev, body.tag, body.rev, callerOf(req)));
    },
  });
  route(router, `${R}/tags/:tag`, {
    delete: async (req, res) => {
      indexing(req.query);
      written(res, 200)(await resources.deleteTag(ref(req), schemaOf(req), idOf(req), requiredRev(req.query), segment(req, 'tag'), callerOf(req)));
    },
  });
  route(router, `${R}/refresh`, {
    put: async (req, res) => {
      indexing(req.query);
      written(res, 200)(await resources.refresh(ref(req), schemaOf(req), idOf(req), callerOf(req)));
    },
  });
  route(router, `${R}/undeprecate`, {
    put: async (req, res) => {
      indexing(req.query);
      written(res, 200)(await resources.undeprecate(ref(req), schemaOf(req), idOf(req), requiredRev(req.query), callerOf(req)));
    },
  });
  route(router, `${R}/update-schema`, {
    put: async (req, res) => {
      indexing(req.query);
      written(res, 200)(await resources.updateSchema(ref(req), schemaOf(req), idOf(req), callerOf(req)));
    },
  });
};
