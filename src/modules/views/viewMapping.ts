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
