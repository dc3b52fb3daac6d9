import type { SubjectPath } from '../../kernel/Subject.js';
import { NXV } from '../../kernel/vocabulary.js';
import { dateTime, integer, iri, quad } from '../../rdf/terms.js';
import type { BlamedTriple } from './blame.js';
import { tripleOf } from './canonicalTriples.js';

const PROV = 'http://www.w3.org/ns/prov#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** Where the blame's N-Quads put things: each revision's graph, the provenance graph, the item, a subject's IRI. */
export interface BlameGraphs {
  revision(rev: number): string;
  provenance: string;
  item: string;
  subject(path: SubjectPath): string;
}

/**
 * A blame as N-Quads: each triple in the graph of the revision that introduced it, and a
 * provenance graph saying of each such graph (a PROV bundle) its revision, when it was made and by
 * whom, and which item it is a revision of.
 */
export const blameQuads = (triples: readonly BlamedTriple[], at: BlameGraphs): string => {
  const quads: string[] = [];
  const revisions = new Map<number, BlamedTriple>();
  for (const t of triples) {
    const terms = tripleOf(t.triple);
    if (!terms) continue;
    quads.push(quad(terms.s, terms.p, terms.o, iri(at.revision(t.rev))));
    revisions.set(t.rev, t);
  }
  const g = iri(at.provenance);
  for (const [rev, t] of [...revisions].sort(([a], [b]) => a - b)) {
    const bundle = iri(at.revision(rev));
    quads.push(
      quad(bundle, iri(RDF_TYPE), iri(`${PROV}Bundle`), g),
      quad(bundle, iri(`${PROV}specializationOf`), iri(at.item), g),
      quad(bundle, iri(`${NXV}rev`), integer(rev), g),
      quad(bundle, iri(`${PROV}generatedAtTime`), dateTime(t.instant), g),
      quad(bundle, iri(`${PROV}wasAttributedTo`), iri(at.subject(t.subject)), g),
    );
  }
  return quads.join('');
};
