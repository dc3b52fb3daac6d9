import { iri } from '../rdf/terms.js';
import { HEAD, viewHeadsOf, viewMetadataGraphOf } from './graphNames.js';
import type { ViewMember } from './ProjectSparqlStore.js';
import { dropStatements } from './remoteSparql.js';

/** Members per update: one VALUES list of their graphs each. */
const BATCH = 500;

/** The graphs a member's triples come from: its revision graph, and its metadata's. */
const sourcesOf = (view: string, member: ViewMember): string[] =>
  member.graph === undefined ? [] : member.metadata ? [member.graph, viewMetadataGraphOf(view, member.item)] : [member.graph];

/**
 * The updates that set a user-defined SPARQL view's graph on an external store, as the embedded
 * store's `ViewStores` does in memory: the view's graph holds the union of its members' graphs,
 * `viewHeadsOf(view)` which graphs those are (`<item> <urn:registry:head> <graph>`, what a query's
 * `GRAPH ?g` may reach), and a member's metadata has a graph of its own beside the view's. A triple
 * leaves the view's graph with the last member graph holding it. `previous` is what the view's
 * graph holds now (this replica writes it alone, see `RemoteProjectSparqlStore`).
 */
export const viewMemberUpdates = (view: string, changes: { previous: ViewMember | undefined; next: ViewMember }[]): string[] => {
  const g = iri(view);
  const heads = iri(viewHeadsOf(view));
  const out: string[] = [];
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = changes.slice(i, i + BATCH);
    const leaving = batch.flatMap((c) => (c.previous ? sourcesOf(view, c.previous).map((s) => [c.previous!.item, s] as const) : []));
    const coming = batch.flatMap((c) => sourcesOf(view, c.next).map((s) => [c.next.item, s] as const));
    const steps: string[] = [];
    if (leaving.length) {
      steps.push(`DELETE DATA { GRAPH ${heads} { ${leaving.map(([item, s]) => `${iri(item)} <${HEAD}> ${iri(s)} .`).join(' ')} } }`);
      steps.push(
        `DELETE { GRAPH ${g} { ?s ?p ?o } } WHERE { VALUES ?src { ${leaving.map(([, s]) => iri(s)).join(' ')} } GRAPH ?src { ?s ?p ?o } ` +
          `FILTER NOT EXISTS { GRAPH ${heads} { ?other <${HEAD}> ?h } GRAPH ?h { ?s ?p ?o } } }`,
      );
      const metadata = batch.flatMap((c) => (c.previous?.metadata ? [viewMetadataGraphOf(view, c.previous.item)] : []));
      steps.push(...dropStatements(metadata));
    }
    for (const c of batch)
      if (c.next.graph !== undefined && c.next.metadata)
        steps.push(`INSERT DATA { GRAPH ${iri(viewMetadataGraphOf(view, c.next.item))} {\n${c.next.metadata}} }`);
    if (coming.length) {
      steps.push(`INSERT DATA { GRAPH ${heads} { ${coming.map(([item, s]) => `${iri(item)} <${HEAD}> ${iri(s)} .`).join(' ')} } }`);
      steps.push(`INSERT { GRAPH ${g} { ?s ?p ?o } } WHERE { VALUES ?src { ${coming.map(([, s]) => iri(s)).join(' ')} } GRAPH ?src { ?s ?p ?o } }`);
    }
    if (steps.length) out.push(steps.join(' ;\n'));
  }
  return out;
};

/** Everything a view's graph is made of, dropped. */
export const viewDropStatements = (view: string, members: Iterable<ViewMember>): string[] => {
  const graphs = [view, viewHeadsOf(view)];
  for (const member of members) if (member.metadata) graphs.push(viewMetadataGraphOf(view, member.item));
  return dropStatements(graphs);
};
