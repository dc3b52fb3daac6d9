import type { JsonObject } from '../kernel/json.js';

/** A payload without its `null` values (what compaction drops, so what a fetch shows). */
export const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(withoutNulls);
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
    return out;
  }
  return value;
};

/**
 * Between two values: a private-use character, which the FTS5 tokenizer keeps as a token of its own
 * and the analyzer never produces, so a phrase cannot run from one value into the next (as the
 * position gap between values does in Elasticsearch).
 */
export const VALUE_BARRIER = '\n\uE000\n';

/** The words a listing's `q` finds an item by: its `@id` and every value of its payload at any depth, the context excepted. */
export const searchableText = (id: string, source: JsonObject): string => {
  const parts: string[] = [id];
  const walk = (value: unknown) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (k !== '@context') walk(v);
    } else parts.push(String(value));
  };
  walk(source);
  return parts.join(VALUE_BARRIER);
};
