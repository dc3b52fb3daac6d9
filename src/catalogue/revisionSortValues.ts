import { Parser } from 'n3';
import type { Quad } from 'n3';
import type { SortValue } from './SortValue.js';
import { SortKind, sortValueOf } from './SortValue.js';
import { spelledIri } from '../rdf/terms.js';

/** The quads of a revision's N-Triples (or default-graph N-Quads) text. */
export const parseRevision = (triples: string): Quad[] => new Parser({ format: 'N-Quads' }).parse(triples);

/**
 * The values of `<id> <predicate> ?v` in a revision, as the SPARQL listing would read them: the id
 * and the predicate as the catalogue and the JSON-LD step both spell them (`spelledIri`).
 */
export const revisionSortValues = (quads: Quad[], id: string, predicate: string): SortValue[] => {
  const [s, p] = [spelledIri(id), spelledIri(predicate)];
  return quads
    .filter((q) => q.subject.termType === 'NamedNode' && q.subject.value === s && q.predicate.value === p)
    .map((q) =>
      q.object.termType === 'Literal'
        ? sortValueOf(q.object.value, q.object.datatype.value, q.object.language || undefined)
        : { kind: SortKind.Other, key: `${q.object.termType}:${q.object.value}` },
    );
};
