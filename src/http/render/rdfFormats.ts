import { schemaBase } from '../../domain/schemas/schemaRef.js';
import { Parser } from 'n3';
import type { ResourceState } from '../../domain/resources/Resource.js';
import { NXV, RDF_TYPE } from '../../kernel/vocabulary.js';
import { boolean, dateTime, integer, iri, spelledIri } from '../../rdf/terms.js';
import type { Addresses } from '../../kernel/Addresses.js';

/** The metadata of a revision as triples on the resource id (N-Triples). */
export const metadataTriples = (state: ResourceState, at: Addresses): string => {
  const s = iri(spelledIri(state.id));
  const t = (p: string, o: string) => `${s} ${iri(NXV + p)} ${o} .\n`;
  return (
    t('self', iri(at.resource(state.project, state.id))) +
    t('constrainedBy', iri(spelledIri(schemaBase(state.schema)))) +
    t('project', iri(at.project(state.project))) +
    t('rev', integer(state.rev)) +
    t('deprecated', boolean(state.deprecated)) +
    t('createdAt', dateTime(state.createdAt)) +
    t('createdBy', iri(at.subject(state.createdBy))) +
    t('updatedAt', dateTime(state.updatedAt)) +
    t('updatedBy', iri(at.subject(state.updatedBy)))
  );
};

/** N-Triples lines as N-Quads in graph `g`. */
export const inGraph = (triples: string, g: string): string =>
  triples
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => `${line.slice(0, line.lastIndexOf(' .'))} ${iri(g)} .\n`)
    .join('');

const dotId = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A Graphviz digraph of the triples: one edge per triple, labelled with the predicate. */
export const dot = (id: string, triples: string): string => {
  const edges = new Parser({ format: 'N-Triples' }).parse(triples).map((q) => {
    const object = q.object.termType === 'BlankNode' ? `_:${q.object.value}` : q.object.value;
    const subject = q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value;
    const label = q.predicate.value === RDF_TYPE ? '@type' : q.predicate.value;
    return `  ${dotId(subject)} -> ${dotId(object)} [label = ${dotId(label)}]`;
  });
  return `digraph ${dotId(id)} {\n${edges.join('\n')}\n}\n`;
};
