/** A short name of an IRI as Delta gives it: its fragment, else its last path segment, else the IRI. */
export const nameOf = (iri: string): string => {
  const hash = iri.lastIndexOf('#');
  if (hash >= 0 && hash < iri.length - 1) return iri.slice(hash + 1);
  const path = iri.replace(/[?#].*$/, '').replace(/^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?/i, '');
  const segments = path.split('/').filter((s) => s !== '');
  return segments.at(-1) ?? iri;
};

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMBERS = new Set(
  ['integer', 'decimal', 'double', 'float', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'negativeInteger', 'nonPositiveInteger']
    .concat(['unsignedLong', 'unsignedInt', 'unsignedShort', 'unsignedByte'])
    .map((t) => XSD + t),
);

/**
 * The data type of a value as Delta's analytics documents name it (`dataType`): `object` for a
 * reference or an embedded node, `number`, `boolean`, else `string`. `kind` is what the properties
 * query answers: a literal's datatype, `@id` or `@node`.
 */
export const dataTypeOf = (kind: string): 'object' | 'number' | 'boolean' | 'string' =>
  kind === '@id' || kind === '@node' ? 'object' : kind === `${XSD}boolean` ? 'boolean' : NUMBERS.has(kind) ? 'number' : 'string';
