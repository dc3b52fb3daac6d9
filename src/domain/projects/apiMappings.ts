import { DEFAULT_STORAGE, NXV, SHACL_SCHEMA, UNCONSTRAINED } from '../../kernel/vocabulary.js';
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

/** A value that is an alias (`_`, `defaultStorage`...) or a CURIE (`nxv:foo`) of the mappings, expanded. */
export const expandMapping = (value: string, mappings: ApiMapping[]): string | undefined => {
  const alias = mappings.find((m) => m.prefix === value);
  if (alias) return alias.namespace;
  const colon = value.indexOf(':');
  if (colon <= 0) return undefined;
  const curie = mappings.find((m) => m.prefix === value.slice(0, colon));
  return curie && curie.namespace + value.slice(colon + 1);
};

/**
 * A term of a payload naming an IRI (a type, a schema): an alias or CURIE of the project's mappings,
 * an absolute IRI, else a term of the project's vocab. `undefined` when the result is not a usable IRI
 * (a CURIE's suffix too: what the revision graph holds must be spelled in N-Triples).
 */
export const expandTerm = (value: string, project: Pick<ProjectState, 'apiMappings' | 'base' | 'vocab'>): string | undefined => {
  const candidate = expandMapping(value, effectiveMappings(project)) ?? (isIri(value) ? value : project.vocab + value);
  return isIri(candidate) ? candidate : undefined;
};

/**
 * An `{id}` segment (already percent-decoded) as an IRI: an alias or CURIE of the project's
 * mappings, else an absolute IRI, else a value relative to the project base. `undefined` when the
 * result is not a usable IRI.
 */
export const resolveId = (segment: string, project: Pick<ProjectState, 'apiMappings' | 'base'>): string | undefined => {
  if (segment === '') return undefined;
  const mapped = expandMapping(segment, effectiveMappings(project));
  if (mapped !== undefined) return mapped;
  const candidate = ABSOLUTE.test(segment) ? segment : project.base + segment;
  return isIri(candidate) ? candidate : undefined;
};

/** A usable absolute IRI: a scheme and no characters that IRIs forbid. */
export const isIri = (value: string): boolean => ABSOLUTE.test(value) && !/[\u0000-\u001f<>"{}|\\^`]/.test(value);
