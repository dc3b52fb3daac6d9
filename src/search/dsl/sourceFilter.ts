import type { JsonObject } from '../../kernel/json.js';
import { searchRejections } from '../searchRejections.js';
import { fieldPattern } from './fields.js';
import { isObject } from './queryParams.js';

const unsupported = searchRejections.unsupportedConstruct;
const malformed = searchRejections.malformedSearchQuery;

/** `_source`: false, a pattern, patterns, or {includes, excludes}. */
export const sourceFilter = (spec: unknown): ((source: JsonObject) => JsonObject) | false => {
  if (spec === undefined || spec === true) return (s) => s;
  if (spec === false) return false;
  const asList = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
  let includes: string[];
  let excludes: string[];
  if (typeof spec === 'string' || Array.isArray(spec)) ((includes = asList(spec)), (excludes = []));
  else if (isObject(spec)) {
    for (const key of Object.keys(spec))
      if (!['includes', 'excludes', 'include', 'exclude'].includes(key)) throw unsupported(`_source.${key}`, '_source filtering');
    includes = asList(spec['includes'] ?? spec['include']);
    excludes = asList(spec['excludes'] ?? spec['exclude']);
  } else throw malformed("'_source' must be a boolean, a pattern, a list of patterns or {includes, excludes}.");
  const inc = includes.map(fieldPattern);
  const exc = excludes.map(fieldPattern);
  // A path is kept when a pattern names it or an object above it; an include pattern also keeps the objects on its way.
  const kept = (path: string) =>
    (!inc.length || inc.some((t, i) => t(path) || includes.some((p, j) => j === i && path.startsWith(`${p}.`)))) &&
    !exc.some((t, i) => t(path) || path.startsWith(`${excludes[i]}.`));
  const below = (path: string) => !inc.length || includes.some((p) => p.startsWith(`${path}.`) || p.includes('*'));
  const filter = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) {
      const out = value.map((v) => filter(v, path)).filter((v) => v !== undefined);
      return out.length ? out : undefined;
    }
    if (isObject(value)) {
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(value)) {
        const p = path ? `${path}.${k}` : k;
        if (exc.some((t, i) => t(p) || p.startsWith(`${excludes[i]}.`))) continue;
        const f = kept(p) ? filterAll(v, p) : below(p) ? filter(v, p) : undefined;
        if (f !== undefined) out[k] = f;
      }
      return path && !Object.keys(out).length ? undefined : out;
    }
    return kept(path) ? value : undefined;
  };
  // Below a kept path only the excludes still apply.
  const filterAll = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => filterAll(v, path));
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const p = `${path}.${k}`;
      if (!exc.some((t, i) => t(p) || p.startsWith(`${excludes[i]}.`))) out[k] = filterAll(v, p);
    }
    return out;
  };
  return (s) => (filter(s, '') as JsonObject | undefined) ?? {};
};
