import { rejections } from '../domain/rejections.js';
import { Rejection } from '../kernel/Rejection.js';
import type { JsonObject, RemoteContextRef } from '../domain/resources/ResourceEvent.js';
import type { ContextSource, ResolvedContext } from './ContextResolver.js';
import { loaderOf, resolveContexts } from './ContextResolver.js';
import { DataFactory, Parser, Writer } from 'n3';
import { jsonld } from './jsonldLib.js';
import { spelledIri } from '../rdf/terms.js';
import type { DocumentLoader } from './jsonldLib.js';

export interface Expansion {
  id: string;
  expanded: JsonObject[];
  types: string[];
  remoteContexts: RemoteContextRef[];
}

export interface ExpandOptions {
  base: string;
  vocab: string;
  /** The id named by the request path, which the payload may repeat but not contradict. */
  pathId?: string;
  generateId: () => string;
  contexts: ContextSource;
  /** Contexts the kind reads every payload with, before the payload's own. */
  injected?: string[];
}

/** Reads a pinned project context document back (the resource's `@context` at the pinned revision). */
export type PinnedContextSource = (ref: Extract<RemoteContextRef, { type: 'ProjectContextRef' }>) => Promise<unknown>;

/**
 * JSON-LD processing of payloads: expansion with pinned remote contexts at write time, compaction
 * and RDF output at read time with exactly the contexts pinned then.
 */
export class JsonLdProcessor {
  constructor(private readonly bundled: Map<string, unknown>) {}

  /** The context a payload is read with: its own, or the project's base and vocab when it has none; `injected` first. */
  contextOf(source: JsonObject, base: string, vocab: string, injected: string[] = []): unknown {
    const own = '@context' in source ? source['@context'] : { '@base': base, '@vocab': vocab };
    return injected.length ? [...injected, ...(Array.isArray(own) ? own : [own])] : own;
  }

  staticContext(iri: string): ResolvedContext | undefined {
    const document = this.bundled.get(iri);
    return document === undefined ? undefined : { document, ref: { type: 'StaticContextRef', iri } };
  }

  async expand(source: JsonObject, options: ExpandOptions): Promise<Expansion> {
    const context = this.contextOf(source, options.base, options.vocab, options.injected);
    const { refs, loader } = await resolveContexts(context, options.base, async (iri) => this.staticContext(iri) ?? options.contexts(iri));
    const expanded = await guard(() => jsonld.expand({ ...source, '@context': context }, { base: options.base, documentLoader: loader }));
    // A node with nothing but an `@id` expands to nothing: keep its id (to use it, or to refuse it when it contradicts the path).
    if (expanded.length === 0 && typeof source['@id'] === 'string') expanded.push({ '@id': await expandedId(source['@id'], context, options.base, loader) });
    const root = rootNode(expanded, options.pathId);
    const payloadId = typeof root['@id'] === 'string' && !root['@id'].startsWith('_:') ? root['@id'] : undefined;
    if (options.pathId !== undefined && payloadId !== undefined && payloadId !== options.pathId)
      throw rejections.unexpectedId(options.pathId, payloadId);
    const id = options.pathId ?? payloadId ?? options.generateId();
    root['@id'] = id;
    if (!expanded.includes(root)) expanded.unshift(root);
    const types = Array.isArray(root['@type']) ? (root['@type'] as string[]) : [];
    return { id, expanded, types, remoteContexts: refs };
  }

  /** The revision compacted with its own context, which may name pinned project contexts. */
  async compact(expanded: JsonObject[], context: unknown, refs: RemoteContextRef[], pinned: PinnedContextSource, base?: string): Promise<JsonObject> {
    const resolved = new Map<string, ResolvedContext>();
    for (const ref of refs) {
      const document = ref.type === 'StaticContextRef' ? this.bundled.get(ref.iri) : await pinned(ref);
      if (document !== undefined) resolved.set(ref.iri, { document, ref });
    }
    return guard(() => jsonld.compact(expanded, context, { documentLoader: loaderOf(resolved, base) }));
  }

  /**
   * The revision as N-Triples: named graphs inside a payload (`@graph` with an `@id`, a
   * `@container: @graph` term) have their triples kept in the revision's own graph, without their
   * graph name, since a revision is exactly one named graph of the store.
   */
  async toNQuads(expanded: JsonObject[]): Promise<string> {
    // Copying the document to respell its IRIs is needed only when one of them cannot be spelled.
    const nquads: string = await jsonld.toRDF(unspellable(expanded) ? spellIris(expanded) : expanded, { format: 'application/n-quads', skipExpansion: true });
    return hasGraph(expanded) ? intoDefaultGraph(nquads) : nquads;
  }
}

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

const intoDefaultGraph = (nquads: string): string => {
  const quads = new Parser({ format: 'N-Quads' }).parse(nquads).map((q) => DataFactory.quad(q.subject, q.predicate, q.object));
  return new Writer({ format: 'N-Triples' }).quadsToString(quads);
};

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

const rootNode = (expanded: JsonObject[], pathId: string | undefined): JsonObject => {
  if (expanded.length === 0) return {};
  if (expanded.length === 1) return expanded[0]!;
  const named = pathId === undefined ? undefined : expanded.find((n) => n['@id'] === pathId);
  if (named) return named;
  throw rejections.invalidJsonLd('the payload must describe a single root node, or name its root with @id');
};

const ID_PROBE = 'urn:registry:probe';

/** The `@id` value expanded with the payload's context, as a node reference that expansion keeps. */
const expandedId = async (id: string, context: unknown, base: string, loader: DocumentLoader): Promise<string> => {
  const [probe] = await guard(() => jsonld.expand({ '@context': context, [ID_PROBE]: { '@id': id } }, { base, documentLoader: loader }));
  const value = (probe?.[ID_PROBE] as JsonObject[] | undefined)?.[0]?.['@id'];
  if (typeof value !== 'string') throw rejections.invalidJsonLd(`the payload @id '${id}' cannot be expanded to an IRI`);
  return value;
};

const guard = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Rejection) throw error;
    const cause = (error as { details?: { cause?: unknown } }).details?.cause;
    if (cause instanceof Rejection) throw cause;
    throw rejections.invalidJsonLd((error as Error).message ?? String(error));
  }
};
