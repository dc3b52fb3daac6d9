import { DataFactory, Parser, Writer } from 'n3';
import type { JsonObject } from '../kernel/json.js';
import { Rejection } from '../kernel/Rejection.js';
import { jsonldRejections } from './jsonldRejections.js';
import type { ResolvedContext } from './ContextResolver.js';
import { loaderOf } from './ContextResolver.js';
import { jsonld } from './jsonldLib.js';
import { spelledIri } from '../rdf/terms.js';
import { placeRoot } from './rootNode.js';
import { refusedLine } from '../store/refusedLine.js';
import { PartMissing } from '../workers/Executor.js';

/**
 * The CPU-heavy JSON-LD operations (expansion, compaction and RDF conversion), written as plain
 * functions of plain data so that they run the same in a worker thread or inline. Contexts are
 * resolved by the caller beforehand and travel as documents.
 */
export interface JsonLdOperations {
  expand(args: { document: JsonObject; base: string; contexts: [string, ResolvedContext][] }): Promise<JsonObject[]>;
  /**
   * Expansion of a payload whose root takes `rootId` (the id its path names), with the N-Triples of
   * the result in the same round trip when the root is found (the write's storability check and
   * its revision graph need them next); `triples` is absent when the main thread must settle the root.
   */
  expandWithTriples(args: {
    document: JsonObject;
    base: string;
    contexts: [string, ResolvedContext][];
    rootId: string;
    /** Also compacted with this context (the one a fetch compacts with), for the first fetch of the revision. */
    compactWith?: unknown;
    /** Also judged by the embedded store's parser (`refusedLine`): `refused` is the first line it cannot keep, or false. */
    judgeStorable?: boolean;
  }): Promise<{ expanded: JsonObject[]; triples?: string; compacted?: JsonObject; refused?: string | false }>;
  compact(args: { expanded: JsonObject[]; context: unknown; contexts: [string, ResolvedContext][]; base?: string }): Promise<JsonObject>;
  toNQuads(args: { expanded: JsonObject[] }): Promise<string>;
}

/** What the JSON-LD library throws becomes `InvalidJsonLdFormat`; rejections (a context's own) pass through. */
const guard = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Rejection || error instanceof PartMissing) throw error;
    const cause = (error as { details?: { cause?: unknown } }).details?.cause;
    if (cause instanceof Rejection) throw cause;
    throw jsonldRejections.invalidJsonLd((error as Error).message ?? String(error));
  }
};

export const jsonldOperations = (): JsonLdOperations => {
  const toNQuads = async ({ expanded }: { expanded: JsonObject[] }): Promise<string> => {
    // Copying the document to respell its IRIs is needed only when one of them cannot be spelled.
    const nquads: string = await guard(() =>
      jsonld.toRDF(unspellable(expanded) ? spellIris(expanded) : expanded, { format: 'application/n-quads', skipExpansion: true }),
    );
    return hasGraph(expanded) ? intoDefaultGraph(nquads) : nquads;
  };
  const expand = ({ document, base, contexts }: { document: JsonObject; base: string; contexts: [string, ResolvedContext][] }): Promise<JsonObject[]> =>
    guard(() => jsonld.expand(document, { base, documentLoader: loaderOf(new Map(contexts)) }));
  return {
    expand,
    expandWithTriples: async ({ rootId, compactWith, judgeStorable, ...args }) => {
      const expanded = await expand(args);
      // Nothing expanded (a payload of only an @id): the main thread expands the id apart.
      if (expanded.length === 0) return { expanded };
      placeRoot(expanded, rootId);
      const converted = await toNQuads({ expanded });
      // The write's storability check, here rather than parsing the triples again on the event loop.
      const triples = judgeStorable ? { triples: converted, refused: refusedLine(converted) ?? (false as const) } : { triples: converted };
      if (compactWith === undefined) return { expanded, ...triples };
      // Best effort: a fetch compacts again, and reports the error, when this fails.
      const compacted = await compactExpanded(expanded, compactWith, args.contexts, args.base).catch(() => undefined);
      return { expanded, ...triples, ...(compacted === undefined ? {} : { compacted }) };
    },
    compact: ({ expanded, context, contexts, base }) => guard(() => compactExpanded(expanded, context, contexts, base)),
    toNQuads,
  };
};

/**
 * Compaction of a document that is in expanded form already (a revision's `expanded`): the library
 * would expand it again first, most of a compaction's time (~140 µs of CPU for ~25 properties, ~60 without).
 */
const compactExpanded = (expanded: JsonObject[], context: unknown, contexts: [string, ResolvedContext][], base?: string) =>
  jsonld.compact(expanded, context as never, { documentLoader: loaderOf(new Map(contexts), base), skipExpansion: true });

/** Whether an IRI of the expanded document (id, type or property) needs respelling. */
const unspellable = (value: unknown, key?: string): boolean => {
  if (typeof value === 'string') return (key === '@id' || key === '@type') && spelledIri(value) !== value;
  if (Array.isArray(value)) return value.some((v) => unspellable(v, key));
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => (!k.startsWith('@') && spelledIri(k) !== k) || (k !== '@value' && unspellable(v, k)));
  return false;
};

/** The expanded document with its IRIs (ids, types, properties) spelled so that jsonld keeps their triples. */
const spellIris = (value: unknown, key?: string): unknown => {
  if (typeof value === 'string') return key === '@id' || key === '@type' ? spelledIri(value) : value;
  if (Array.isArray(value)) return value.map((v) => spellIris(v, key));
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k.startsWith('@') ? k : spelledIri(k)] = k === '@value' ? v : spellIris(v, k);
    return out;
  }
  return value;
};

/** Whether a named graph appears anywhere in the expanded document. */
const hasGraph = (value: unknown): boolean => {
  const pending: unknown[] = [value];
  for (let next = pending.pop(); next !== undefined || pending.length; next = pending.pop()) {
    if (Array.isArray(next)) pending.push(...next);
    else if (next && typeof next === 'object') {
      if ('@graph' in next) return true;
      for (const [key, v] of Object.entries(next)) if (key !== '@value' && typeof v === 'object') pending.push(v);
    }
  }
  return false;
};

/**
 * Named graphs inside a payload (`@graph` with an `@id`, a `@container: @graph` term) keep their
 * triples in the revision's own graph, without their graph name: a revision is one named graph.
 */
const intoDefaultGraph = (nquads: string): string => {
  const quads = new Parser({ format: 'N-Quads' }).parse(nquads).map((q) => DataFactory.quad(q.subject, q.predicate, q.object));
  return new Writer({ format: 'N-Triples' }).quadsToString(quads);
};
