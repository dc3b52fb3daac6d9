import { jsonldRejections as rejections } from './jsonldRejections.js';
import { placeRoot } from './rootNode.js';
import type { JsonObject } from '../kernel/json.js';
import type { ContextSource, RemoteContextRef, ResolvedContext } from './ContextResolver.js';
import { resolveContexts } from './ContextResolver.js';
import type { Executor } from '../workers/Executor.js';
import { inlineExecutor } from '../workers/Executor.js';
import type { JsonLdOperations } from './jsonldOperations.js';
import { jsonldOperations } from './jsonldOperations.js';
import { Rejection } from '../kernel/Rejection.js';
import { context as contextIri } from '../kernel/vocabulary.js';

/** The context a fetch appends to the payload's own, for the metadata fields. */
const METADATA = contextIri('metadata');

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
  /** The N-Triples are needed next (a write): converted in the expansion's round trip when the path names the id. */
  withTriples?: boolean;
}

/** Reads a pinned project context document back (the resource's `@context` at the pinned revision). */
export type PinnedContextSource = (ref: Extract<RemoteContextRef, { type: 'ProjectContextRef' }>) => Promise<unknown>;

/**
 * JSON-LD processing of payloads: expansion with pinned remote contexts at write time, compaction
 * and RDF output at read time with exactly the contexts pinned then.
 */
export class JsonLdProcessor {
  private readonly converted = new WeakMap<object, Promise<string>>();
  private readonly precompacted = new WeakMap<object, JsonObject>();
  private readonly refusals = new WeakMap<object, string | false>();

  constructor(
    private readonly bundled: Map<string, unknown>,
    /** Where expansion, compaction and RDF conversion run (a worker pool in the service). */
    private readonly executor: Executor<JsonLdOperations> = inlineExecutor(jsonldOperations()),
    /**
     * The store judges a revision's triples with `refusedLine` (the embedded store): a write's worker
     * judges them with it in the expansion's round trip (see `refusal`).
     */
    private readonly judgeStorable = false,
  ) {}

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
    const { refs, resolved } = await resolveContexts(context, options.base, async (iri) => this.staticContext(iri) ?? options.contexts(iri));
    const contexts = [...resolved];
    await this.readableWithMetadata(context, options.base, contexts);
    const document = { ...source, '@context': context };
    let expanded: JsonObject[];
    // Where the path names the id, the worker settles the root and converts to N-Triples in the same
    // round trip: a write needs them next (storability check, revision graph), one trip fewer.
    if (options.pathId !== undefined && options.withTriples) {
      const both = await this.executor.run('expandWithTriples', {
        document,
        base: options.base,
        contexts,
        rootId: options.pathId,
        compactWith: context,
        judgeStorable: this.judgeStorable,
      });
      expanded = both.expanded;
      if (both.triples !== undefined) this.converted.set(expanded, Promise.resolve(both.triples));
      if (both.refused !== undefined) this.refusals.set(expanded, both.refused);
      if (both.compacted !== undefined) this.precompacted.set(expanded, both.compacted);
    } else expanded = await this.executor.run('expand', { document, base: options.base, contexts });
    // A node with nothing but an `@id` expands to nothing: keep its id (to use it, or to refuse it when it contradicts the path).
    if (expanded.length === 0 && typeof source['@id'] === 'string')
      expanded.push({ '@id': await this.expandedId(source['@id'], context, options.base, contexts) });
    const { root, id } = placeRoot(expanded, options.pathId, options.generateId);
    const types = Array.isArray(root['@type']) ? (root['@type'] as string[]) : [];
    return { id, expanded, types, remoteContexts: refs };
  }

  /**
   * A fetch answers the payload with its metadata under `[its context, metadata.json]`. JSON-LD 1.1
   * forbids redefining a protected term: a context protecting a term metadata.json defines would be
   * served as a document no processor can read, so the payload is refused with the reason instead.
   * Only contexts that protect anything are checked (one more expansion of an empty node).
   */
  private async readableWithMetadata(context: unknown, base: string, contexts: [string, ResolvedContext][]): Promise<void> {
    if (!JSON.stringify([context, contexts.map(([, c]) => c.document)]).includes('"@protected"')) return;
    const probe = { '@context': [...(Array.isArray(context) ? context : [context]), METADATA], '@id': base };
    try {
      await this.executor.run('expand', { document: probe, base, contexts: [...contexts, [METADATA, this.staticContext(METADATA)!]] });
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      throw rejections.invalidJsonLd(
        `its context protects a term that the metadata context '${METADATA}' defines, so the resource as fetched (its context, then the metadata context) could not be read as JSON-LD (${String(error.fields['details'] ?? error.reason)})`,
      );
    }
  }

  /** Forgets the N-Triples kept for an expanded document that was changed after its expansion. */
  changed(expanded: JsonObject[]): void {
    this.converted.delete(expanded);
    this.precompacted.delete(expanded);
    this.refusals.delete(expanded);
  }

  /**
   * The first line of the document's N-Triples the store cannot keep, or false, when its worker
   * judged them (a write's expansion, with `judgeStorable`); undefined when it did not.
   */
  refusal(expanded: JsonObject[]): string | false | undefined {
    return this.refusals.get(expanded);
  }

  /**
   * The compacted form the worker made with the expansion (the payload's own context, as a fetch
   * compacts it), taken once: the writer keeps it for the revision's first fetch.
   */
  takeCompacted(expanded: JsonObject[]): JsonObject | undefined {
    const compacted = this.precompacted.get(expanded);
    this.precompacted.delete(expanded);
    return compacted;
  }

  /** The revision compacted with its own context, which may name pinned project contexts. */
  async compact(expanded: JsonObject[], context: unknown, refs: RemoteContextRef[], pinned: PinnedContextSource, base?: string): Promise<JsonObject> {
    const resolved = new Map<string, ResolvedContext>();
    for (const ref of refs) {
      const document = ref.type === 'StaticContextRef' ? this.bundled.get(ref.iri) : await pinned(ref);
      if (document !== undefined) resolved.set(ref.iri, { document, ref });
    }
    return this.executor.run('compact', { expanded, context, contexts: [...resolved], ...(base === undefined ? {} : { base }) });
  }

  /**
   * The revision as N-Triples: named graphs inside a payload (`@graph` with an `@id`, a
   * `@container: @graph` term) have their triples kept in the revision's own graph, without their
   * graph name, since a revision is exactly one named graph of the store.
   */
  /**
   * The revision's N-Triples. Kept per expanded document while it lives: a write converts it once to
   * check it can be stored, and the projection of its event (the same object) reuses the result.
   */
  toNQuads(expanded: JsonObject[]): Promise<string> {
    let triples = this.converted.get(expanded);
    if (!triples) {
      triples = this.executor.run('toNQuads', { expanded });
      this.converted.set(expanded, triples);
      triples.catch(() => this.converted.delete(expanded));
    }
    return triples;
  }

  /** The `@id` value expanded with the payload's context, as a node reference that expansion keeps. */
  private async expandedId(id: string, context: unknown, base: string, contexts: [string, ResolvedContext][]): Promise<string> {
    const [probe] = await this.executor.run('expand', { document: { '@context': context, [ID_PROBE]: { '@id': id } } as JsonObject, base, contexts });
    const value = (probe?.[ID_PROBE] as JsonObject[] | undefined)?.[0]?.['@id'];
    if (typeof value !== 'string') throw rejections.invalidJsonLd(`the payload @id '${id}' cannot be expanded to an IRI`);
    return value;
  }
}

const ID_PROBE = 'urn:registry:probe';
