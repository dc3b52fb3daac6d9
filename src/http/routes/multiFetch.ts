import type { Router } from 'express';
import type { ItemViews, MultiFetch, MultiFetched, MultiFetchEntry } from '../../domain/resources/MultiFetch.js';
import { rejections } from '../../domain/rejections.js';
import type { Addresses } from '../../kernel/Addresses.js';
import type { ProjectAccess } from '../../kernel/ProjectAccess.js';
import { mayReadProject } from '../../kernel/ProjectAccess.js';
import { context } from '../../kernel/vocabulary.js';
import type { JsonLdProcessor } from '../../jsonld/JsonLdProcessor.js';
import { dot, metadataTriples } from '../render/rdfFormats.js';
import { onRoot } from '../route.js';
import type { Endpoint, Routes } from '../route.js';
import type { ItemRenderer } from './itemHandlers.js';
import { FETCH } from '../reads.js';
import type { CpuTurns } from '../../workers/CpuTurns.js';

const FORMATS = ['source', 'annotated-source', 'compacted', 'expanded', 'n-triples', 'dot'] as const;
type Format = (typeof FORMATS)[number];

interface Deps {
  multiFetch: MultiFetch;
  renderers: Record<string, ItemRenderer>;
  jsonld: JsonLdProcessor;
  addresses: Addresses;
  /** Most entries one request may name (400 beyond). */
  maxEntries: number;
  /** The event loop's turns shared with searches: a multi-fetch fetches and renders its entries in slices of them. */
  turns: CpuTurns;
}

/** Entries fetched at once within a slice (their reads may wait on the store together); the slice's time is checked between groups. */
const GROUP = 16;
/** Past this many entries a multi-fetch is costly: counted against the caller's share of costly requests. */
const COSTLY_ENTRIES = 100;
const entriesNamed = (body: unknown): number => {
  const resources = body && typeof body === 'object' ? (body as { resources?: unknown }).resources : undefined;
  return Array.isArray(resources) ? resources.length : 0;
};

const readableIn = (access: ProjectAccess) => (project: string) => mayReadProject(access, project);

/** `{"format": F, "resources": [{"id", "project"}]}`, checked before anything is fetched. */
const request = (body: unknown, max: number): { format: Format; entries: MultiFetchEntry[] } => {
  const b = body as { format?: unknown; resources?: unknown } | undefined;
  if (!b || typeof b !== 'object' || Array.isArray(b))
    throw rejections.malformedContent('The multi-fetch payload must be {"format": <format>, "resources": [{"id": <iri>, "project": "org/project"}]}.');
  if (typeof b.format !== 'string' || !(FORMATS as readonly string[]).includes(b.format))
    throw rejections.malformedContent(`'format' must be one of ${FORMATS.join(', ')}.`);
  if (!Array.isArray(b.resources)) throw rejections.malformedContent('\'resources\' must be an array of {"id", "project"}.');
  if (b.resources.length > max) throw rejections.malformedContent(`At most ${max} resources can be fetched at once, got ${b.resources.length}.`);
  const entries = b.resources.map((r: unknown) => {
    const e = r as { id?: unknown; project?: unknown };
    if (!e || typeof e.id !== 'string' || typeof e.project !== 'string' || !/^[a-zA-Z0-9_-]{1,64}\/[a-zA-Z0-9_-]{1,64}$/.test(e.project))
      throw rejections.malformedContent('Every entry of \'resources\' must be {"id": <iri>, "project": "org/project"}.');
    return { id: e.id, project: e.project };
  });
  return { format: b.format as Format, entries };
};

/** Spec §4.7: many items of any kind in one request, in request order, each readable one in the chosen format. */
export const multiFetchRoutes = (routes: Routes, router: Router, deps: Deps): void => {
  const value = async (fetched: Exclude<MultiFetched, { error: string }>, format: Format): Promise<unknown> => {
    if ('views' in fetched) return viewed(fetched.views, format);
    const { state } = fetched;
    const content = fetched.content!;
    const render = deps.renderers[fetched.kind]!;
    switch (format) {
      case 'compacted':
        return render.body(state, fetched.compacted!, deps.addresses);
      case 'source':
        return content.source;
      case 'annotated-source':
        return render.annotated(state, content.source, deps.addresses);
      case 'expanded':
        return content.expanded;
      case 'n-triples':
      case 'dot': {
        const triples = (await deps.jsonld.toNQuads(content.expanded)) + metadataTriples(state, deps.addresses);
        return format === 'dot' ? dot(state.id, triples) : triples;
      }
    }
  };
  /** Storages and files' metadata: every format from their views. */
  const viewed = async (views: ItemViews, format: Format): Promise<unknown> => {
    switch (format) {
      case 'compacted':
        return views.body;
      case 'source':
        return views.source;
      case 'annotated-source':
        return views.annotated;
      case 'expanded':
        return views.expanded;
      case 'n-triples':
      case 'dot': {
        const triples = await deps.jsonld.toNQuads(views.expanded);
        return format === 'dot' ? dot(views.id, triples) : triples;
      }
    }
  };
  const endpoint: Endpoint = {
    // Each entry is checked on its own project: the handler gets every project the caller may read.
    guard: { permission: 'resources/read', within: onRoot },
    reads: FETCH,
    body: 'json',
    costly: (req) => entriesNamed(req.body) > COSTLY_ENTRIES,
    handle: async (req, res, { access }) => {
      const { format, entries } = request(req.body, deps.maxEntries);
      const rendered = async (f: MultiFetched) => {
        const head = { '@id': f.entry.id, project: f.entry.project };
        if (!('error' in f)) return { ...head, value: await value(f, format) };
        const reason =
          f.error === 'NotFound'
            ? `The resource '${f.entry.id}' was not found in project '${f.entry.project}'.`
            : 'The supplied authentication is not authorized to access this resource.';
        const withContext = format === 'compacted' || format === 'expanded' ? { '@context': context('error') } : {};
        return { ...head, error: { ...withContext, '@type': f.error, reason } };
      };
      // In slices, as searches run: a thousand entries let other requests through between groups.
      const resources = await deps.turns.run(async (turn) => {
        const out: Awaited<ReturnType<typeof rendered>>[] = [];
        for (let i = 0; i < entries.length; i += GROUP) {
          if (turn.due()) await turn.pause();
          const fetched = await deps.multiFetch.fetch(entries.slice(i, i + GROUP), format === 'compacted', readableIn(access));
          out.push(...(await Promise.all(fetched.map(rendered))));
        }
        return out;
      });
      res.type('application/ld+json').send(JSON.stringify({ format, resources }));
    },
  };
  routes.add(router, '/v1/multi-fetch/resources', { get: endpoint, post: endpoint });
};
