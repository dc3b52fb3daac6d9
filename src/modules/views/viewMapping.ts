import type { JsonObject } from '../../kernel/json.js';
import { viewRejections } from './viewRejections.js';

/**
 * The field types the search engine tells apart (src/search/dsl/fields.ts): it maps each value as
 * Elasticsearch's dynamic mapping would, so a mapping is honoured when it names those types.
 */
const SUPPORTED = new Set(['text', 'keyword', 'long', 'integer', 'short', 'byte', 'double', 'float', 'boolean', 'date', 'object', 'nested']);
/** Parameters of a field that change nothing in how our engine matches it. */
const HARMLESS = new Set(['type', 'properties', 'fields', 'ignore_above', 'copy_to', 'dynamic']);

const fail = (detail: string): never => {
  throw viewRejections.invalidMapping(detail);
};

const field = (path: string, spec: unknown): void => {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return fail(`'${path}' must be a JSON object.`);
  const s = spec as JsonObject;
  for (const key of Object.keys(s)) if (!HARMLESS.has(key)) fail(`'${path}.${key}' is not supported: the engine maps values dynamically and has no '${key}'.`);
  const type = s['type'];
  if (type !== undefined && (typeof type !== 'string' || !SUPPORTED.has(type))) fail(`'${path}.type' '${String(type)}' is not a supported field type.`);
  if (s['properties'] !== undefined) properties(`${path}.properties`, s['properties']);
  if (s['fields'] !== undefined) properties(`${path}.fields`, s['fields']);
};

const properties = (path: string, value: unknown): void => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return fail(`'${path}' must be a JSON object.`);
  for (const [name, spec] of Object.entries(value as JsonObject)) field(`${path}.${name}`, spec);
};

/** InvalidElasticSearchIndexPayload unless every part of the mapping is one the engine honours. */
export const checkMapping = (mapping: JsonObject | undefined): void => {
  if (!mapping) return;
  for (const key of Object.keys(mapping)) if (!['properties', 'dynamic', 'dynamic_templates', '_source'].includes(key)) fail(`'${key}' is not supported.`);
  const dynamic = mapping['dynamic'];
  if (dynamic !== undefined && dynamic !== true && dynamic !== 'true')
    fail(`'dynamic: ${JSON.stringify(dynamic)}' is not supported: every field of a document is searchable.`);
  if (mapping['dynamic_templates'] !== undefined && !(Array.isArray(mapping['dynamic_templates']) && mapping['dynamic_templates'].length === 0))
    fail("'dynamic_templates' are not supported.");
  if (mapping['_source'] !== undefined) fail("'_source' is not supported: hits always hold the whole document.");
  if (mapping['properties'] !== undefined) properties('properties', mapping['properties']);
};

/** The fields a mapping makes keywords (dotted paths): matched and sorted as whole strings. */
export const keywordPaths = (mapping: JsonObject | undefined): Set<string> => {
  const paths = new Set<string>();
  const walk = (prefix: string, props: unknown) => {
    if (!props || typeof props !== 'object') return;
    for (const [name, spec] of Object.entries(props as JsonObject)) {
      const s = spec as JsonObject;
      if (s['type'] === 'keyword') paths.add(`${prefix}${name}`);
      if (s['properties']) walk(`${prefix}${name}.`, s['properties']);
    }
  };
  walk('', mapping?.['properties']);
  return paths;
};

/**
 * A search body over a view whose mapping makes some fields keywords: the engine maps strings as
 * text with a `.keyword` sub-field (Elasticsearch's dynamic mapping), so a keyword field `f` is read
 * as `f.keyword` wherever the body names a field (clause keys, `field`, sort keys).
 */
export const withKeywords = (body: unknown, paths: ReadonlySet<string>): unknown => {
  if (!paths.size) return body;
  const rename = (name: string) => (paths.has(name) ? `${name}.keyword` : name);
  const walk = (value: unknown, under?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? (under === 'sort' ? rename(v) : v) : walk(v)));
    if (under === 'sort' && typeof value === 'string') return rename(value);
    if (!value || typeof value !== 'object') return value;
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(value as JsonObject)) {
      if (key === '_source') out[key] = v as JsonObject[string];
      else if ((key === 'field' || key === 'default_field') && typeof v === 'string') out[key] = rename(v);
      else if (key === 'fields' && Array.isArray(v)) out[key] = v.map((f) => (typeof f === 'string' ? rename(f) : f)) as JsonObject[string];
      else out[rename(key)] = walk(v, key) as JsonObject[string];
    }
    return out;
  };
  return walk(body);
};
