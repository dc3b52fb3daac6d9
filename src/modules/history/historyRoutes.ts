import type { Request, Response, Router } from 'express';
import { rejections } from '../../domain/rejections.js';
import { integer, selector, single } from '../../http/params.js';
import { itemOf, onRoot } from '../../http/route.js';
import type { ItemPath } from '../../http/requestEdge.js';
import type { Endpoint, Handler, Routes } from '../../http/route.js';
import { projectEndpoint } from '../../http/projectEndpoints.js';
import { FETCH } from '../../http/reads.js';
import { sendJsonLd as send } from '../../http/routes/itemResponses.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { context } from '../../kernel/vocabulary.js';
import type { HistoryService, Pick1, RevisionDiff } from './HistoryService.js';
import type { SubjectPath } from '../../kernel/Subject.js';
import { revisionGraph } from '../../store/graphNames.js';
import { blameQuads } from './blameQuads.js';
import { itemSelf } from './itemSelf.js';
import { rdfPatch, sparqlUpdate } from './rdfChanges.js';
import { deltaSubject } from './historyEntries.js';

interface Deps {
  history: HistoryService;
  addresses: Addresses;
}

/** Reading a history, a diff or a blame is reading the item: `resources/read` on its project (Delta's history route). */
const read = (summary: string, item: ItemPath, handle: Handler): Endpoint => projectEndpoint('resources/read', handle, { summary, item });

/** What a diff answers in, by `Accept`; the first is the default. */
const DIFF_TYPES = ['application/json', 'application/ld+json', 'application/json-patch+json', 'application/rdf-patch', 'application/sparql-update'];

const sendDiff = (req: Request, res: Response, diff: RevisionDiff, id: string | undefined): void => {
  const type = req.accepts(DIFF_TYPES);
  if (!type) throw rejections.notAcceptable(DIFF_TYPES);
  res.vary('Accept');
  if (type === 'application/json-patch+json') return void res.status(200).type(type).send(JSON.stringify(diff.source));
  if (type === 'application/rdf-patch') return void res.status(200).type(type).send(rdfPatch(diff));
  if (type === 'application/sparql-update') return void res.status(200).type(type).send(sparqlUpdate(diff));
  const body = { '@context': context('metadata'), ...(id === undefined ? {} : { '@id': id }), ...diff };
  res.status(200).type(type).send(JSON.stringify(body));
};

const NQUADS = 'application/n-quads';

/** What a blame answers in, by `Accept`: JSON-LD, or N-Quads with a provenance graph. */
const BLAME_TYPES = ['application/ld+json', 'application/json', NQUADS];

/** `rev` / `tag` of one side of a diff (`from`, `fromTag`; `to`, `toTag`), never both. */
const sideOf = (req: Request, side: 'from' | 'to'): Pick1 => {
  const rev = integer(req.query, side, 1);
  const tag = single(req.query, `${side}Tag`);
  if (rev !== undefined && tag !== undefined) throw rejections.malformedQueryParam(`Query parameters '${side}' and '${side}Tag' cannot be used together.`);
  return rev !== undefined ? { rev } : tag !== undefined ? { tag } : undefined;
};

/** History (Delta's path), diffs and blame of resources and schemas, and the diff of two items. */
export const historyRoutes = (routes: Routes, router: Router, { history, addresses }: Deps): void => {
  routes.add(router, '/v1/history/resources/:org/:project/:id', {
    get: read('The history of a resource, schema or file: one entry per revision, oldest first (from, size)', { id: 'id' }, async (req, res, ctx) => {
      const from = integer(req.query, 'from', 0, 1_000_000) ?? 0;
      const size = integer(req.query, 'size', 1, 2000) ?? 2000;
      const { total, entries } = await history.history(itemOf(ctx), from, size);
      send(res, { _total: total, _results: entries });
    }),
  });
  for (const [kind, path] of [
    ['resources', '/v1/resources/:org/:project/:schema/:id'],
    ['schemas', '/v1/schemas/:org/:project/:id'],
  ] as const) {
    const item: ItemPath = kind === 'resources' ? { schema: 'schema', id: 'id' } : { id: 'id' };
    routes.add(router, `${path}/diff`, {
      get: read(
        `Compare two revisions of a ${kind === 'resources' ? 'resource' : 'schema'} (from, to, fromTag, toTag; by Accept)`,
        item,
        async (req, res, ctx) => {
          const diff = await history.diff(kind, itemOf(ctx), sideOf(req, 'from'), sideOf(req, 'to'));
          sendDiff(req, res, diff, diff.to['@id']);
        },
      ),
    });
    routes.add(router, `${path}/blame`, {
      get: read(
        `Each triple of a revision of a ${kind === 'resources' ? 'resource' : 'schema'} with the revision that introduced it (rev, tag)`,
        item,
        async (req, res, ctx) => {
          const project = itemOf(ctx).project;
          const blamed = await history.blame(kind, itemOf(ctx), selector(req.query));
          const type = req.accepts(BLAME_TYPES);
          if (!type) throw rejections.notAcceptable(BLAME_TYPES);
          res.vary('Accept');
          if (type === NQUADS) {
            const graphs = {
              revision: (rev: number) => revisionGraph(kind, project, blamed.id, rev),
              provenance: `${revisionGraph(kind, project, blamed.id, blamed.rev)}/provenance`,
              item: blamed.id,
              subject: (path: SubjectPath) => addresses.subject(path),
            };
            return void res.status(200).type(NQUADS).send(blameQuads(blamed.triples, graphs));
          }
          send(res, {
            '@context': context('metadata'),
            '@id': blamed.id,
            rev: blamed.rev,
            triples: blamed.triples.map((t) => ({ triple: t.triple, rev: t.rev, instant: t.instant, subject: deltaSubject(t.subject) })),
          });
        },
      ),
    });
  }
  routes.add(router, '/v1/diff', {
    get: {
      // Each item's project is checked in the service: the caller must read both.
      guard: { permission: 'resources/read', within: onRoot },
      reads: FETCH,
      body: 'none',
      summary: 'Compare two items, each given by its _self (with its own rev or tag): left, right',
      handle: async (req, res, ctx) => {
        const left = itemSelf('left', single(req.query, 'left'), addresses.base);
        const right = itemSelf('right', single(req.query, 'right'), addresses.base);
        sendDiff(req, res, await history.diffItems(left, right, ctx.caller), undefined);
      },
    },
  });
};
