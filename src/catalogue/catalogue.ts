import type { ProjectRef } from '../kernel/labels.js';
import type { Listed } from '../domain/KindDefinition.js';
import { NXV, RDF_TYPE } from '../kernel/vocabulary.js';
import { CATALOGUE, itemNode } from '../store/graphNames.js';
import { boolean, dateTime, integer, iri, literal, quad } from '../rdf/terms.js';
import { DATA_TRIPLES, lineCount } from '../store/remoteSparql.js';

/** What the catalogue records of an item's current state (what listings filter and sort on, and its links), with subjects as addresses. */
export interface CatalogueItem extends Listed {
  kind: string;
  /** The named graph of the current revision. */
  head: string;
}

export const nxv = (local: string): string => iri(`${NXV}${local}`);
const G = iri(CATALOGUE);
const CATALOGUE_TERM = G;

/** The same triples without their graph, for bulk loads into the catalogue graph (a quarter less text to parse). */
export const catalogueTriples = (item: CatalogueItem): string => catalogueQuads(item, '');

/**
 * The catalogue's triples for one item, on its item node (graph names in graphNames.ts). Links are
 * nodes `{item}#link{n}` with `nxv:target` and `nxv:paths` (a JSON array of predicate IRIs), so an
 * incoming-link query is one index lookup on the target.
 */
export const catalogueQuads = (item: CatalogueItem, G = CATALOGUE_TERM): string => {
  const node = itemNode(item.kind, item.project, item.id);
  const s = iri(node);
  const org = item.project.slice(0, item.project.indexOf('/'));
  let out =
    quad(s, nxv('kind'), literal(item.kind), G) +
    quad(s, nxv('project'), literal(item.project), G) +
    quad(s, nxv('organization'), literal(org), G) +
    quad(s, nxv('id'), iri(item.id), G) +
    quad(s, nxv('rev'), integer(item.rev), G) +
    quad(s, nxv('deprecated'), boolean(item.deprecated), G) +
    quad(s, nxv('constrainedBy'), iri(item.schema), G) +
    quad(s, nxv('createdAt'), dateTime(item.createdAt), G) +
    quad(s, nxv('createdBy'), iri(item.createdBy), G) +
    quad(s, nxv('updatedAt'), dateTime(item.updatedAt), G) +
    quad(s, nxv('updatedBy'), iri(item.updatedBy), G) +
    quad(s, nxv('head'), iri(item.head), G);
  for (const type of item.types) out += quad(s, iri(RDF_TYPE), iri(type), G);
  item.links.forEach((link, n) => {
    const l = iri(`${node}#link${n}`);
    out += quad(s, nxv('link'), l, G) + quad(l, nxv('target'), iri(link.target), G) + quad(l, nxv('paths'), literal(JSON.stringify(link.paths)), G);
  });
  return out;
};

export const removeCatalogueUpdate = (kind: string, project: ProjectRef, id: string): string => {
  const s = iri(itemNode(kind, project, id));
  return `DELETE WHERE { GRAPH ${G} { ${s} ${nxv('link')} ?l . ?l ?lp ?lo } } ;\nDELETE WHERE { GRAPH ${G} { ${s} ?p ?o } }`;
};

/** Entries kept small enough for one request to any server (Virtuoso's limits, its stock settings' included: remoteSparql.ts). */
const ENTRIES_PER_UPDATE = 200;

/**
 * Several items' entries replaced by their current ones (`item`) or removed (none), set-wise: a few
 * updates of three operations each, whatever the number of items; writing them again changes nothing.
 */
export const replaceCatalogueUpdates = (entries: readonly { node: string; item: CatalogueItem | undefined }[]): string[] => {
  const updates: string[] = [];
  let run: string[] = [];
  let triples = '';
  let lines = 0;
  const flush = () => {
    if (!run.length) return;
    const nodes = run.join(' ');
    updates.push(
      `DELETE { GRAPH ${G} { ?l ?lp ?lo } } WHERE { VALUES ?s { ${nodes} } GRAPH ${G} { ?s ${nxv('link')} ?l . ?l ?lp ?lo } } ;\n` +
        `DELETE { GRAPH ${G} { ?s ?p ?o } } WHERE { VALUES ?s { ${nodes} } GRAPH ${G} { ?s ?p ?o } }` +
        (triples ? ` ;\nINSERT DATA { GRAPH ${G} {\n${triples}} }` : ''),
    );
    run = [];
    triples = '';
    lines = 0;
  };
  for (const { node, item } of entries) {
    const entry = item ? catalogueTriples(item) : '';
    if (run.length && lines + lineCount(entry) > DATA_TRIPLES) flush();
    run.push(iri(node));
    triples += entry;
    lines += lineCount(entry);
    if (run.length >= ENTRIES_PER_UPDATE) flush();
  }
  flush();
  return updates;
};
