import type { Listed } from '../../domain/KindDefinition.js';
import type { Addresses } from '../../kernel/Addresses.js';
import { NXV } from '../../kernel/vocabulary.js';
import { boolean, dateTime, integer, iri, quad } from '../../rdf/terms.js';
import type { MetadataOf } from './ViewIndex.js';

/**
 * An item's metadata as a SPARQL view with `includeMetadata` holds it: Delta's metadata triples
 * (`nxv:rev`, `nxv:deprecated`, `nxv:createdAt`...) about the item's `@id`, with the addresses this
 * service renders (`nxv:self`, `nxv:project`, `nxv:createdBy`...).
 */
export const viewMetadata =
  (addresses: Addresses): MetadataOf =>
  (kind: string, listed: Listed): string => {
    const s = iri(listed.id);
    const p = (name: string) => iri(`${NXV}${name}`);
    const self = kind === 'schemas' ? addresses.schema(listed.project, listed.id) : addresses.resource(listed.project, listed.id);
    return [
      quad(s, p('rev'), integer(listed.rev), ''),
      quad(s, p('deprecated'), boolean(listed.deprecated), ''),
      quad(s, p('createdAt'), dateTime(listed.createdAt), ''),
      quad(s, p('createdBy'), iri(addresses.subject(listed.createdBy)), ''),
      quad(s, p('updatedAt'), dateTime(listed.updatedAt), ''),
      quad(s, p('updatedBy'), iri(addresses.subject(listed.updatedBy)), ''),
      quad(s, p('constrainedBy'), iri(listed.schema), ''),
      quad(s, p('project'), iri(addresses.project(listed.project)), ''),
      quad(s, p('self'), iri(self), ''),
    ].join('');
  };
