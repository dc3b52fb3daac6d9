/** A JSON value as parsed (a payload's source). */
export type JsonValue = unknown;

/** One RFC 6902 operation; the diff emits only these three. */
export type PatchOperation = { op: 'add'; path: string; value: JsonValue } | { op: 'remove'; path: string } | { op: 'replace'; path: string; value: JsonValue };

/** RFC 6901: `~` and `/` escaped in a reference token. */
const token = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (v: JsonValue): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural equality of two JSON values (key order ignored, as JSON objects are unordered). */
const jsonEqual = (a: JsonValue, b: JsonValue): boolean => {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]!));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k]!, b[k]!));
  }
  return false;
};

/**
 * The JSON Patch (RFC 6902) that turns `from` into `to`: objects are compared key by key, arrays
 * after their common head and tail (an element inserted or removed in the middle of a list is one
 * operation, the rest of the list is not rewritten), anything else replaced whole. Applying the
 * operations in order to `from` gives a value equal to `to`.
 */
export const jsonPatch = (from: JsonValue, to: JsonValue, path = ''): PatchOperation[] => {
  const out: PatchOperation[] = [];
  diff(from, to, path, out);
  return out;
};

const diff = (a: JsonValue, b: JsonValue, path: string, out: PatchOperation[]): void => {
  if (jsonEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) out.push({ op: 'remove', path: `${path}/${token(key)}` });
    for (const key of Object.keys(b)) {
      const at = `${path}/${token(key)}`;
      if (Object.hasOwn(a, key)) diff(a[key]!, b[key]!, at, out);
      else out.push({ op: 'add', path: at, value: b[key]! });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) return diffArrays(a, b, path, out);
  out.push({ op: 'replace', path, value: b });
};

const diffArrays = (a: JsonValue[], b: JsonValue[], path: string, out: PatchOperation[]): void => {
  let head = 0;
  while (head < a.length && head < b.length && jsonEqual(a[head]!, b[head]!)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && jsonEqual(a[a.length - 1 - tail]!, b[b.length - 1 - tail]!)) tail++;
  const inA = a.length - head - tail;
  const inB = b.length - head - tail;
  const common = Math.min(inA, inB);
  for (let i = 0; i < common; i++) diff(a[head + i]!, b[head + i]!, `${path}/${head + i}`, out);
  for (let i = common; i < inA; i++) out.push({ op: 'remove', path: `${path}/${head + common}` });
  for (let i = common; i < inB; i++) out.push({ op: 'add', path: `${path}/${head + i}`, value: b[head + i]! });
};
