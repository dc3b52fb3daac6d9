import { iri, literal } from '../rdf/terms.js';
import { HEAD, VIEW_BUILD, VIEW_GRAPH_PREFIX, VIEW_LEGACY_SWEPT, VIEW_REGISTRY, viewHeadsOf, viewMetadataGraphOf } from './graphNames.js';
import type { ViewMember } from './ProjectSparqlStore.js';
import { chunks, dropStatements, VALUES_ROWS } from './remoteSparql.js';

/** Members per update: one VALUES list of their graphs each, and one `INSERT DATA` of their metadata. */
const BATCH = 200;

/** What a member read back from the store holds as metadata: its text is not read, only that it has some (its graph is dropped when it leaves). */
export const HELD_METADATA = '(held)';

/** The graphs a member's triples come from: its revision graph, and its metadata's. */
const sourcesOf = (view: string, member: ViewMember): string[] =>
  member.graph === undefined ? [] : member.metadata ? [member.graph, viewMetadataGraphOf(view, member.item)] : [member.graph];

/** Neither holds metadata and both name the same graph: the member is copied again, nothing leaves. */
const unchanged = (c: { previous: ViewMember | undefined; next: ViewMember }): boolean =>
  c.previous !== undefined && c.previous.graph === c.next.graph && !c.previous.metadata && !c.next.metadata;

/**
 * The updates that set a user-defined SPARQL view's graph on an external store, as the embedded
 * store's `ViewStores` does in memory: the view's graph holds the union of its members' graphs,
 * `viewHeadsOf(view)` which graphs those are (`<item> <urn:registry:head> <graph>`, what a query's
 * `GRAPH ?g` may reach), and a member's metadata has a graph of its own beside the view's. A triple
 * leaves the view's graph with the last member graph holding it. `previous` is what the store holds
 * for the member (`viewHeldQueries`). Every member's sources are copied in, a member set to what it
 * held included: its revision graph may have reached the store only since, and a copy made again
 * changes nothing.
 */
export const viewMemberUpdates = (view: string, changes: { previous: ViewMember | undefined; next: ViewMember }[]): string[] => {
  const g = iri(view);
  const heads = iri(viewHeadsOf(view));
  const out: string[] = [];
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = changes.slice(i, i + BATCH);
    const leaving = batch.flatMap((c) => (c.previous && !unchanged(c) ? sourcesOf(view, c.previous).map((s) => [c.previous!.item, s] as const) : []));
    const coming = batch.flatMap((c) => sourcesOf(view, c.next).map((s) => [c.next.item, s] as const));
    const steps: string[] = [];
    if (leaving.length) {
      steps.push(`DELETE DATA { GRAPH ${heads} { ${leaving.map(([item, s]) => `${iri(item)} <${HEAD}> ${iri(s)} .`).join(' ')} } }`);
      steps.push(
        `DELETE { GRAPH ${g} { ?s ?p ?o } } WHERE { VALUES ?src { ${leaving.map(([, s]) => iri(s)).join(' ')} } GRAPH ?src { ?s ?p ?o } ` +
          `FILTER NOT EXISTS { GRAPH ${heads} { ?other <${HEAD}> ?h } GRAPH ?h { ?s ?p ?o } } }`,
      );
      const metadata = batch.flatMap((c) => (c.previous?.metadata && !unchanged(c) ? [viewMetadataGraphOf(view, c.previous.item)] : []));
      steps.push(...dropStatements(metadata));
    }
    // One operation for the batch's metadata: Virtuoso refuses a request of too many operations (SQ200).
    const metadata = batch.filter((c) => c.next.graph !== undefined && c.next.metadata);
    if (metadata.length)
      steps.push(`INSERT DATA {\n${metadata.map((c) => `GRAPH ${iri(viewMetadataGraphOf(view, c.next.item))} {\n${c.next.metadata}}`).join('\n')}\n}`);
    if (coming.length) {
      steps.push(`INSERT DATA { GRAPH ${heads} { ${coming.map(([item, s]) => `${iri(item)} <${HEAD}> ${iri(s)} .`).join(' ')} } }`);
      steps.push(`INSERT { GRAPH ${g} { ?s ?p ?o } } WHERE { VALUES ?src { ${coming.map(([, s]) => iri(s)).join(' ')} } GRAPH ?src { ?s ?p ?o } }`);
    }
    if (steps.length) out.push(steps.join(' ;\n'));
  }
  return out;
};

/** What the view's heads graph says of these items (`?item ?src`), one query per `VALUES_ROWS`. */
export const viewHeldQueries = (view: string, items: readonly string[]): string[] =>
  chunks(items, () => 1, Number.POSITIVE_INFINITY, VALUES_ROWS).map(
    (run) => `SELECT ?item ?src WHERE { VALUES ?item { ${run.map(iri).join(' ')} } GRAPH ${iri(viewHeadsOf(view))} { ?item <${HEAD}> ?src } }`,
  );

/** The members the rows of `viewHeldQueries` describe: a source under the view's metadata graphs is a member's metadata. */
export const heldMembers = (view: string, rows: readonly { item: string; src: string }[]): Map<string, ViewMember> => {
  const meta = `${view}/meta/`;
  const held = new Map<string, ViewMember>();
  for (const { item, src } of rows) {
    const member = held.get(item) ?? { item, graph: undefined };
    if (src.startsWith(meta)) member.metadata = HELD_METADATA;
    else member.graph = src;
    held.set(item, member);
  }
  return held;
};

/** The view's metadata graphs its heads graph names (`?src`). */
export const viewMetadataQuery = (view: string): string =>
  `SELECT DISTINCT ?src WHERE { GRAPH ${iri(viewHeadsOf(view))} { ?item <${HEAD}> ?src } FILTER(STRSTARTS(STR(?src), ${literal(`${view}/meta/`)})) }`;

/** Everything a view's graph is made of, dropped: the graph, its heads and its members' metadata graphs. */
export const viewDropStatements = (view: string, metadataGraphs: Iterable<string>): string[] => dropStatements([view, viewHeadsOf(view), ...metadataGraphs]);

const registry = iri(VIEW_REGISTRY);
const build = `<${VIEW_BUILD}>`;

/** The registry's graphs and their state (`?g ?state`), and whether the former replicas' graphs were swept (a row of `?g` = the registry). */
export const VIEW_REGISTRY_QUERY = `SELECT ?g ?state WHERE { GRAPH ${registry} { { ?g ${build} ?state } UNION { ?g <${VIEW_LEGACY_SWEPT}> ?state } } }`;

/** The graph's state in the registry set (undefined: its record removed). */
export const viewRegistryUpdate = (graph: string, state: 'building' | 'complete' | undefined): string => {
  const g = iri(graph);
  const removed = `DELETE { GRAPH ${registry} { ${g} ${build} ?s } } WHERE { GRAPH ${registry} { ${g} ${build} ?s } }`;
  return state === undefined ? removed : `${removed} ;\nINSERT DATA { GRAPH ${registry} { ${g} ${build} ${literal(state)} } }`;
};

/** Every graph under the views' prefix, what replicas building their own graphs left included (a scan of the store: once per store). */
export const VIEW_GRAPHS_SCAN = `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), ${literal(VIEW_GRAPH_PREFIX)})) }`;

export const VIEW_LEGACY_SWEPT_UPDATE = `INSERT DATA { GRAPH ${registry} { ${registry} <${VIEW_LEGACY_SWEPT}> true } }`;
