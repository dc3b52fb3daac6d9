import { rejections } from '../rejections.js';
import { NXV } from '../../kernel/vocabulary.js';
import type { JsonObject } from './ResourceEvent.js';
import { isIri } from '../projects/apiMappings.js';

/** A payload must be one JSON object whose root fields do not use the reserved `_` prefix. */
export const checkSource = (source: unknown): JsonObject => {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) throw rejections.malformedContent('The payload must be a JSON object.');
  const reserved = Object.keys(source).filter((k) => k.startsWith('_'));
  if (reserved.length)
    throw rejections.malformedContent(
      `The payload uses the reserved root field(s) ${reserved.map((k) => `'${k}'`).join(', ')}: fields starting with '_' are reserved for metadata.`,
    );
  return source as JsonObject;
};

/** Types from the service vocabulary belong to the service's own kinds (schemas, storages...). */
export const checkTypes = (types: string[]): void => {
  const reserved = types.filter((t) => t.startsWith(NXV));
  if (reserved.length) throw rejections.reservedTypes(reserved);
};

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether the IRI's path holds a `.` or `..` segment. Such an IRI is not in normal form: every
 * resolver (JSON-LD compaction against the project's base, an HTTP client building a URL) removes
 * its dot segments, so what a client is shown or sends back names another resource.
 */
const hasDotSegment = (iri: string): boolean => {
  const rest = iri.slice(iri.indexOf(':') + 1).split(/[?#]/)[0]!;
  const path = rest.startsWith('//') ? rest.slice(rest.indexOf('/', 2) === -1 ? rest.length : rest.indexOf('/', 2)) : rest;
  return path.split('/').some((segment) => segment === '.' || segment === '..');
};

/**
 * An id that fetch, update and deprecate can address afterwards: an absolute IRI of well-formed
 * Unicode (no lone surrogate) without the characters IRIs forbid (`<>"{}|\^`` and controls), and
 * without `.` or `..` path segments (`PUT .../_/%2E%2E%2F%2E%2E`).
 */
export const addressableId = (id: string): boolean => !LONE_SURROGATE.test(id) && isIri(id) && !hasDotSegment(id);
