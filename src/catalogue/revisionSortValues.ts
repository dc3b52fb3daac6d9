import { Parser } from 'n3';
import type { Quad } from 'n3';
import type { SortValue } from './SortValue.js';
import { SortKind, sortValueOf } from './SortValue.js';

/** The quads of a revision's N-Triples (or default-graph N-Quads) text. */
export const parseRevision = (triples: string): Quad[] => new Parser({ format: 'N-Quads' }).parse(triples);

/**
 * The values of `<id> <predicate> ?v` in a revision, as the SPARQL listing would read them. The
 * match is on the id as the catalogue holds it: an id the JSON-LD step spelled differently (see
 * `spelledIri`) has no values there, for SPARQL as here.
 */
export const revisionSortValues = (quads: Quad[], id: string, predicate: string): SortValue[] =>
  quads
    .filter((q) => q.subject.termType === 'NamedNode' && q.subject.value === id && q.predicate.value === predicate)
    .map((q) =>
      q.object.termType === 'Literal'
        ? sortValueOf(q.object.value, q.object.datatype.value, q.object.language || undefined)
        : { kind: SortKind.Other, key: `${q.object.termType}:${q.object.value}` },
    );
