/**
 * A schema reference as a `{schema_id}` segment or `_constrainedBy` value reads: the schema IRI,
 * optionally pinned to a revision (`iri?rev=n`) or a tag (`iri?tag=t`).
 */
export interface SchemaRef {
  iri: string;
  rev?: number;
  tag?: string;
}

const PINNED = /\?(rev|tag)=([^?&#]+)$/;

export const parseSchemaRef = (value: string): SchemaRef => {
  const match = PINNED.exec(value);
  if (!match) return { iri: value };
  const iri = value.slice(0, match.index);
  const pin = decodeURIComponent(match[2]!);
  if (match[1] === 'tag') return { iri, tag: pin };
  return /^\d+$/.test(pin) ? { iri, rev: Number(pin) } : { iri: value };
};

/** The schema itself, whatever revision or tag the reference names. */
export const schemaBase = (value: string): string => parseSchemaRef(value).iri;

/** `_constrainedBy` of a resource validated against revision `rev` of a schema. */
export const pinnedSchema = (iri: string, rev: number): string => `${iri}?rev=${rev}`;
