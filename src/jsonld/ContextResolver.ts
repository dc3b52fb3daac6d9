import type { ProjectRef } from '../kernel/labels.js';
import { jsonldRejections as rejections } from './jsonldRejections.js';
import type { DocumentLoader } from './jsonldLib.js';

/** A remote context a revision was expanded with, pinned so later reads reproduce it exactly. */
export type RemoteContextRef =
  { type: 'StaticContextRef'; iri: string } | { type: 'ProjectContextRef'; iri: string; resource: { id: string; project: ProjectRef; rev: number } };

/** A remote context resolved for one expansion: the document and how it is pinned. */
export interface ResolvedContext {
  document: unknown;
  ref: RemoteContextRef;
}

/** Finds a context document by IRI: the bundled service contexts, or a resource of the project. */
export type ContextSource = (iri: string) => Promise<ResolvedContext | undefined>;

/**
 * Walks the `@context` of a payload (and of every context it names, transitively, including
 * `@import`) and resolves each remote IRI once. Anything unresolvable is refused by name before
 * expansion starts; the result pins every context used, and serves them to jsonld.
 */
export const resolveContexts = async (payloadContext: unknown, base: string, source: ContextSource) => {
  const resolved = new Map<string, ResolvedContext>();
  const visit = async (ctx: unknown): Promise<void> => {
    for (const entry of Array.isArray(ctx) ? ctx : [ctx]) {
      if (typeof entry === 'string') {
        const iri = absolute(entry, base);
        if (resolved.has(iri)) continue;
        const found = await source(iri);
        if (!found) throw rejections.invalidJsonLd(`remote context '${iri}' cannot be resolved`);
        resolved.set(iri, found);
        await visit(contextOf(found.document));
      } else if (entry && typeof entry === 'object') {
        const imported = (entry as Record<string, unknown>)['@import'];
        if (typeof imported === 'string') await visit(imported);
        for (const value of Object.values(entry as Record<string, unknown>)) {
          const scoped = value && typeof value === 'object' ? (value as Record<string, unknown>)['@context'] : undefined;
          if (scoped !== undefined) await visit(scoped);
        }
      }
    }
  };
  await visit(payloadContext);
  return { refs: [...resolved.values()].map((r) => r.ref), resolved };
};

/**
 * A loader that serves exactly the given contexts; the service's own are cached by jsonld as static.
 * `base` resolves relative context references (`"@context": "my-context"`) as at expansion.
 */
export const loaderOf =
  (resolved: Map<string, ResolvedContext>, base?: string): DocumentLoader =>
  async (url) => {
    const found = resolved.get(url) ?? (base === undefined ? undefined : resolved.get(absolute(url, base)));
    if (!found) throw rejections.invalidJsonLd(`remote context '${url}' cannot be resolved`);
    return {
      contextUrl: null,
      documentUrl: url,
      document: found.document,
      ...(found.ref.type === 'StaticContextRef' ? { tag: 'static' as const } : {}),
    };
  };

const contextOf = (document: unknown): unknown => (document && typeof document === 'object' ? (document as Record<string, unknown>)['@context'] : undefined);

const absolute = (iri: string, base: string): string => {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(iri)) return iri;
  try {
    return new URL(iri, base).href;
  } catch {
    return iri;
  }
};
