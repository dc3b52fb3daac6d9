import { DEFAULT_STORAGE, NXV, SHACL_SCHEMA, UNCONSTRAINED } from '../vocabulary.js';
import type { ApiMapping, ProjectState } from './Project.js';

/** Aliases every project has besides its own api mappings (wire-format.md, "Addresses"). */
export const DEFAULT_MAPPINGS: ApiMapping[] = [
  { prefix: '_', namespace: UNCONSTRAINED },
  { prefix: 'resource', namespace: UNCONSTRAINED },
  { prefix: 'schema', namespace: SHACL_SCHEMA },
  { prefix: 'nxv', namespace: NXV },
  { prefix: 'defaultStorage', namespace: DEFAULT_STORAGE },
];

/** The project's own mappings win over the defaults of the same prefix. */
export const effectiveMappings = (project: Pick<ProjectState, 'apiMappings'>): ApiMapping[] => [
  ...project.apiMappings,
  ...DEFAULT_MAPPINGS.filter((d) => !project.apiMappings.some((m) => m.prefix === d.prefix)),
];

const ABSOLUTE = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * An `{id}` segment (already percent-decoded) as an IRI: an alias or CURIE of the project's
 * mappings, else an absolute IRI, else a value relative to the project base. `undefined` when the
 * result is not a usable IRI.
 */
export const resolveId = (segment: string, project: Pick<ProjectState, 'apiMappings' | 'base'>): string | undefined => {
  if (segment === '') return undefined;
  const mappings = effectiveMappings(project);
  const alias = mappings.find((m) => m.prefix === segment);
  if (alias) return alias.namespace;
  const colon = segment.indexOf(':');
  if (colon > 0) {
    const curie = mappings.find((m) => m.prefix === segment.slice(0, colon));
    if (curie) return curie.namespace + segment.slice(colon + 1);
  }
  const candidate = ABSOLUTE.test(segment) ? segment : project.base + segment;
  return isIri(candidate) ? candidate : undefined;
};

/** A usable absolute IRI: a scheme and no characters that IRIs forbid. */
export const isIri = (value: string): boolean => ABSOLUTE.test(value) && !/[\u0000-\u001f<>"{}|\\^`]/.test(value);
