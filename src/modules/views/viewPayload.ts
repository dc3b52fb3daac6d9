import type { JsonObject } from '../../kernel/json.js';
import { isLabel } from '../../kernel/labels.js';
import { NXV } from '../../kernel/vocabulary.js';
import type { ViewFields, ViewFilters, ViewRef, ViewType } from './View.js';
import { isAggregate } from './View.js';
import { viewRejections } from './viewRejections.js';

const TYPES: Record<string, ViewType> = {};
for (const t of ['ElasticSearchView', 'SparqlView', 'AggregateElasticSearchView', 'AggregateSparqlView'] as const) {
  TYPES[t] = t;
  TYPES[`nxv:${t}`] = t;
  TYPES[`${NXV}${t}`] = t;
}
const VIEW = new Set(['View', 'nxv:View', `${NXV}View`]);

/** Delta's limit on an aggregate's members (`elasticsearch.max-view-refs`). */
export const MAX_VIEW_REFS = 20;

const fail = (reason: string): never => {
  throw viewRejections.decodingFailed(reason);
};

const typeOf = (source: JsonObject): ViewType => {
  const raw = source['@type'];
  const types = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((t) => !(typeof t === 'string' && VIEW.has(t)));
  const known = [...new Set(types.map((t) => (typeof t === 'string' ? TYPES[t] : undefined)))];
  if (known.length !== 1 || known[0] === undefined)
    return fail("'@type' must name exactly one of 'ElasticSearchView', 'SparqlView', 'AggregateElasticSearchView' or 'AggregateSparqlView'.");
  return known[0];
};

const strings = (source: JsonObject, field: string): string[] => {
  const raw = source[field];
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.every((v): v is string => typeof v === 'string' && v !== '')) return fail(`'${field}' must be a list of non-empty strings.`);
  return list;
};

const optionalString = (source: JsonObject, field: string): string | undefined => {
  const raw = source[field];
  if (raw === undefined) return undefined;
  return typeof raw === 'string' && raw !== '' ? raw : fail(`'${field}' must be a non-empty string.`);
};

const flag = (source: JsonObject, field: string, fallback: boolean): boolean => {
  const raw = source[field];
  if (raw === undefined) return fallback;
  return typeof raw === 'boolean' ? raw : fail(`'${field}' must be a boolean.`);
};

const object = (source: JsonObject, field: string): JsonObject | undefined => {
  const raw = source[field];
  if (raw === undefined) return undefined;
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as JsonObject) : fail(`'${field}' must be a JSON object.`);
};

/**
 * A view payload read as Delta decodes it (the legacy payload of indexing views: filters rather
 * than a pipeline). `expand` turns a schema or type into an IRI (the project's prefixes and vocab).
 */
export const viewFields = (source: JsonObject, expand: (value: string) => string | undefined): ViewFields => {
  const type = typeOf(source);
  const name = optionalString(source, 'name');
  const description = optionalString(source, 'description');
  const common = { type, ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) };
  if (isAggregate(type)) {
    const raw = source['views'];
    if (!Array.isArray(raw) || raw.length === 0) return fail("An aggregate view needs a non-empty list 'views' of { project, viewId }.");
    if (raw.length > MAX_VIEW_REFS) throw viewRejections.tooManyViewReferences(raw.length, MAX_VIEW_REFS);
    const views = raw.map((entry): ViewRef => {
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return fail("Each entry of 'views' must be an object { project, viewId }.");
      const { project, viewId } = entry as JsonObject;
      if (typeof project !== 'string' || typeof viewId !== 'string') return fail("Each entry of 'views' needs a string 'project' and 'viewId'.");
      const [org, label, ...rest] = project.split('/');
      if (rest.length || !org || !label || !isLabel(org) || !isLabel(label)) return fail(`'${project}' is not a project reference 'org/project'.`);
      return { project, viewId };
    });
    const unique = [...new Map(views.map((v) => [`${v.project} ${v.viewId}`, v])).values()];
    return { ...common, views: unique };
  }
  if (source['pipeline'] !== undefined && !(Array.isArray(source['pipeline']) && source['pipeline'].length === 0))
    return fail("'pipeline' is not supported here: select resources with 'resourceSchemas', 'resourceTypes', 'resourceTag', 'includeDeprecated'.");
  const iris = (field: string) => strings(source, field).map((v) => expand(v) ?? fail(`'${v}' in '${field}' cannot be expanded to an Iri.`));
  const tag = optionalString(source, 'resourceTag');
  const filters: ViewFilters = {
    resourceSchemas: iris('resourceSchemas'),
    resourceTypes: iris('resourceTypes'),
    ...(tag !== undefined ? { resourceTag: tag } : {}),
    includeMetadata: flag(source, 'includeMetadata', false),
    includeDeprecated: flag(source, 'includeDeprecated', false),
    permission: optionalString(source, 'permission') ?? 'views/query',
  };
  if (type === 'SparqlView') return { ...common, filters };
  const mapping = object(source, 'mapping');
  const settings = object(source, 'settings');
  return {
    ...common,
    filters,
    ...(mapping ? { mapping } : {}),
    ...(settings ? { settings } : {}),
    sourceAsText: flag(source, 'sourceAsText', false),
  };
};
