import type { Request, Response } from 'express';
import type { ItemTarget } from '../../kernel/ItemRef.js';
import { rejections } from '../../domain/rejections.js';
import type { ResourceState } from '../../domain/resources/Resource.js';
import type { JsonObject } from '../../domain/resources/ResourceEvent.js';
import type { LinkEntry, ResourceQueries } from '../../catalogue/ResourceQueries.js';
import type { ResourceService } from '../../domain/resources/ResourceService.js';
import { context } from '../../kernel/vocabulary.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { revisionGraph } from '../../store/graphNames.js';
import { listingRequest, nextAddress } from '../listingParams.js';
import type { Scope } from '../listingParams.js';
import { bool, requiredRev, selector, single, tagName } from '../params.js';
import { tagBody } from './tagBody.js';
import { aggregationsBody, pageBody } from '../render/listing.js';
import { dot, inGraph, metadataTriples } from '../render/rdfFormats.js';
import { typesValue } from '../render/resources.js';
import { itemOf, segment } from '../route.js';
import { linksBody, paging, sendJsonLd as send, tagsBody } from './itemResponses.js';
import { notModified } from '../conditional.js';
import type { Context } from '../route.js';
import type { Addresses } from '../../kernel/Addresses.js';

/** How a kind of item renders: write responses and listing entries, fetched bodies, annotated sources. */
export interface ItemRenderer {
  metadata(state: ResourceState, at: Addresses): JsonObject;
  body(state: ResourceState, compacted: JsonObject, at: Addresses): JsonObject;
  annotated(state: ResourceState, source: JsonObject, at: Addresses): JsonObject;
}

export interface ItemDeps {
  service: ResourceService;
  queries: ResourceQueries;
  jsonld: JsonLdProcessor;
  addresses: Addresses;
  kind: 'resources' | 'schemas';
  render: ItemRenderer;
}

const REPRESENTATIONS = ['application/ld+json', 'application/json', 'application/n-triples', 'application/n-quads', 'text/vnd.graphviz'];

/** The log position of the last event of a revision: what identifies it forever. */
const lastPosition = (state: ResourceState): number => state.seqs[state.seqs.length - 1] ?? 0;

/**
 * The handlers of the lifecycle resources and schemas share (spec 4.1, 4.3): thin wrappers that
 * parse the request, call one service method and render its result.
 */
export const itemHandlers = ({ service, queries, jsonld, addresses, kind, render }: ItemDeps) => {
  const written = (res: Response, status: number) => (state: ResourceState) => send(res, render.metadata(state, addresses), status);

  /** Fetch in the representation the client accepts. */
  const represent = async (req: Request, res: Response, target: Parameters<ResourceService['fetch']>) => {
    const type = req.accepts(REPRESENTATIONS);
    if (!type) throw rejections.notAcceptable(REPRESENTATIONS);
    res.vary('Accept');
    if (type === 'application/ld+json' || type === 'application/json') {
      const { state, compacted } = await service.fetchCompacted(...target);
      if (notModified(req, res, lastPosition(state), type, state.updatedAt)) return;
      res.type(type).send(JSON.stringify(render.body(state, compacted, addresses)));
      return;
    }
    const { state, content } = await service.fetch(...target);
    if (notModified(req, res, lastPosition(state), type, state.updatedAt)) return;
    const triples = (await jsonld.toNQuads(content.expanded)) + metadataTriples(state, addresses);
    if (type === 'application/n-triples') res.type(type).send(triples);
    else if (type === 'application/n-quads') res.type(type).send(inGraph(triples, revisionGraph(kind, state.project, state.id, state.rev)));
    else res.type(type).send(dot(state.id, triples));
  };

  /** Link listings: known items carry their metadata, external IRIs only `@id` and `paths`. */
  const links = (entries: { total: number; items: LinkEntry[] }, req: Request, from: number, size: number) => {
    const results = entries.items.map((e) =>
      e.state ? { '@id': e.id, ...typesValue(e.state.types), paths: e.paths, ...render.metadata(e.state, addresses) } : { '@id': e.id, paths: e.paths },
    );
    return linksBody(req, addresses, entries.total, results, from, size);
  };

  /** The target is the route's item (POST: no id). */
  const create = async (req: Request, res: Response, ctx: Context, target: ItemTarget = ctx.item!) => {
    written(res, 201)(await service.create(target, req.body, tagName(req.query), ctx.caller));
  };

  return {
    create,
    list: (scope: (req: Request) => Scope) => async (req: Request, res: Response, ctx: Context) => {
      const request = listingRequest(req, scope(req), ctx.access);
      if (bool(req.query, 'aggregations') === true) return send(res, aggregationsBody(await queries.aggregate(request)));
      const page = await queries.list(request);
      send(
        res,
        pageBody(page, (s) => render.metadata(s, addresses), page.next && nextAddress(addresses, req, page.next)),
      );
    },
    incoming: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      const { from, size } = paging(req);
      send(res, links(await queries.incoming(item, from, size), req, from, size));
    },
    outgoing: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      const { from, size } = paging(req);
      send(res, links(await queries.outgoing(item, from, size, bool(req.query, 'includeExternalLinks') ?? true), req, from, size));
    },
    fetch: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      await represent(req, res, [item, selector(req.query)]);
    },
    /** PUT without `rev` creates, with `rev` updates. */
    put: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      if (single(req.query, 'rev') === undefined) return create(req, res, ctx, item);
      written(res, 200)(await service.update(item, req.body, requiredRev(req.query), tagName(req.query), ctx.caller));
    },
    deprecate: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      written(res, 200)(await service.deprecate(item, requiredRev(req.query), ctx.caller));
    },
    source: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      const annotate = bool(req.query, 'annotate') ?? false;
      const { state, content } = await service.fetch(item, selector(req.query));
      res.vary('Accept');
      if (notModified(req, res, lastPosition(state), annotate ? 'annotated-source' : 'source', state.updatedAt)) return;
      send(res, annotate ? render.annotated(state, content.source, addresses) : content.source);
    },
    remoteContexts: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      const { content } = await service.fetch(item, selector(req.query));
      const remoteContexts = content.remoteContexts.map((r) =>
        r.type === 'StaticContextRef' ? { '@type': r.type, iri: r.iri } : { '@type': r.type, iri: r.iri, resource: r.resource },
      );
      send(res, { '@context': context('remote-contexts'), remoteContexts });
    },
    tags: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      const { state } = await service.fetch(item, selector(req.query));
      send(res, tagsBody(state.tags));
    },
    tag: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      const rev = requiredRev(req.query);
      const body = tagBody(req.body);
      written(res, 201)(await service.tag(item, rev, body.tag, body.rev, ctx.caller));
    },
    deleteTag: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      written(res, 200)(await service.deleteTag(item, requiredRev(req.query), segment(req, 'tag'), ctx.caller));
    },
    refresh: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      written(res, 200)(await service.refresh(item, ctx.caller));
    },
    undeprecate: async (req: Request, res: Response, ctx: Context) => {
      const item = itemOf(ctx);
      written(res, 200)(await service.undeprecate(item, requiredRev(req.query), ctx.caller));
    },
    written,
  };
};
