import { searchRejections } from '../searchRejections.js';
import type { Leaf } from './fields.js';
import { fieldPattern } from './fields.js';

/** Reading the parameters of a query of the search DSL: its shape checked, every refusal typed. */

const unsupported = searchRejections.unsupportedConstruct;
const malformed = searchRejections.malformedSearchQuery;

/** Fields a multi-field query reads. */
export type FieldList = { test: (path: string) => boolean; exact?: string; boost: number }[];

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ "<type>": body }` with exactly one key. */
export const single = (json: unknown, where: string): [string, unknown] => {
  if (!isObject(json)) throw malformed(`${where} must be an object with one query type, got ${JSON.stringify(json)}.`);
  const keys = Object.keys(json);
  if (keys.length !== 1) throw malformed(`${where} must name exactly one query type, got ${keys.length ? keys.join(', ') : 'none'}.`);
  return [keys[0]!, json[keys[0]!]];
};

/** The params of a leaf query on one field: `{field: value}` (value under `shortKey`) or `{field: {...params}}`. */
export const onField = (type: string, body: unknown, shortKey: string, allowed: string[]): [string, Record<string, unknown>] => {
  if (!isObject(body)) throw malformed(`[${type}] must be an object naming a field.`);
  const entries = Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name');
  if (entries.length !== 1) throw malformed(`[${type}] must name exactly one field, got ${entries.map(([k]) => k).join(', ') || 'none'}.`);
  const [field, value] = entries[0]!;
  const params = isObject(value) ? value : { [shortKey]: value };
  checkParams(type, params, allowed);
  if (params[shortKey] === undefined) throw malformed(`[${type}] on '${field}' needs '${shortKey}'.`);
  return [field, params];
};

export const checkParams = (type: string, params: Record<string, unknown>, allowed: string[]) => {
  for (const key of Object.keys(params))
    if (!allowed.includes(key) && key !== 'boost' && key !== '_name') throw unsupported(`${type}.${key}`, `parameter of [${type}]`);
};

export const boostOf = (params: Record<string, unknown>): number => {
  const b = params['boost'];
  if (b === undefined) return 1;
  if (typeof b !== 'number' || !(b >= 0)) throw malformed("'boost' must be a non-negative number.");
  return b;
};

export const scalar = (value: unknown, where: string): Leaf => {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw malformed(`${where} must be a string, a number or a boolean, got ${JSON.stringify(value)}.`);
};

/** `minimum_should_match` as a count of `of` clauses: an integer, a negative one, or a percentage. */
export const minimumShouldMatch = (spec: unknown, of: number): number => {
  if (typeof spec === 'number' && Number.isInteger(spec)) return spec < 0 ? Math.max(0, of + spec) : spec;
  if (typeof spec === 'string') {
    const m = /^(-?)(\d+)(%?)$/.exec(spec.trim());
    if (m) {
      const n = Number(m[2]);
      const count = m[3] ? Math.floor((of * n) / 100) : n;
      return m[1] ? Math.max(0, of - count) : count;
    }
  }
  throw unsupported(`minimum_should_match: ${JSON.stringify(spec)}`, 'only integers and percentages are supported');
};

/** Fields a multi-field query reads: patterns with optional boosts (`name^2`), `*` by default. */
export const fieldList = (value: unknown, where: string): FieldList => {
  const list = value === undefined ? ['*'] : Array.isArray(value) ? value : [value];
  return list.map((f) => {
    if (typeof f !== 'string') throw malformed(`${where}: fields must be strings.`);
    const m = /^(.*?)(?:\^(\d+(?:\.\d+)?))?$/.exec(f)!;
    const name = m[1]!;
    return { test: fieldPattern(name), ...(name.includes('*') ? {} : { exact: name }), boost: m[2] ? Number(m[2]) : 1 };
  });
};

export const operatorOf = (value: unknown, where: string): 'and' | 'or' => {
  const op = value === undefined ? 'or' : String(value).toLowerCase();
  if (op !== 'and' && op !== 'or') throw malformed(`${where}: operator must be 'and' or 'or'.`);
  return op;
};
