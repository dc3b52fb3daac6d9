import type { ProjectRef } from '../kernel/labels.js';

/**
 * The public naming scheme of the triple store (documented in docs/sparql.md):
 * - `urn:registry:{kind}/{org}/{project}/{encoded id}` names an item in the catalogue;
 * - `{item}/rev/{n}` is the named graph holding revision n exactly as expanded at write time;
 * - `urn:registry:catalogue` holds the current state of every item (see catalogue.ts).
 * The id is percent-encoded as one segment (encodeURIComponent), so the name is a valid IRI and
 * the parts split unambiguously.
 */
export const CATALOGUE = 'urn:registry:catalogue';

const PREFIX = 'urn:registry:';

export const itemNode = (kind: string, project: ProjectRef, id: string): string => `${PREFIX}${kind}/${project}/${encodeURIComponent(id)}`;

export const revisionGraph = (kind: string, project: ProjectRef, id: string, rev: number): string => `${itemNode(kind, project, id)}/rev/${rev}`;

export const parseItemNode = (node: string): { kind: string; project: ProjectRef; id: string } | undefined => {
  if (!node.startsWith(PREFIX)) return undefined;
  const [kind, org, project, id] = node.slice(PREFIX.length).split('/');
  if (!kind || !org || !project || id === undefined) return undefined;
  return { kind, project: `${org}/${project}`, id: decodeURIComponent(id) };
};

/**
 * With an external store, the SPARQL endpoint's datasets live in the store too: a project's default
 * graph is `urn:registry:current/{org}/{project}` (a copy of the head revision of each current item)
 * and `urn:registry:heads/{org}/{project}` says which revision is each item's head. Neither is an
 * item's name (they have no id segment).
 */
export const currentGraphOf = (project: ProjectRef): string => `${PREFIX}current/${project}`;
export const headsGraphOf = (project: ProjectRef): string => `${PREFIX}heads/${project}`;
export const HEADS_PREFIX = `${PREFIX}heads/`;
export const HEAD = `${PREFIX}head`;

/**
 * A user-defined SPARQL view's graph: `urn:registry:view/{org}/{project}/{encoded view id}/{build}`
 * holds a copy of the triples of the items the view selects, the default graph of its queries, so a
 * view is queried over one graph whatever it selects. `build` changes at each (re)indexing, so a
 * rebuilt view never meets its former graph's triples. The embedded store's builds are the
 * process's own; in an external store `build` is `rev{indexingRev}` (`sharedViewGraphOf`): one graph
 * per view and index revision, written by the store's lease holder alone (see docs/operations.md).
 */
export const viewGraphOf = (project: ProjectRef, viewId: string, build: string): string =>
  `${PREFIX}view/${project}/${encodeURIComponent(viewId)}/${encodeURIComponent(build)}`;
export const sharedViewGraphOf = (project: ProjectRef, viewId: string, indexingRev: number): string => viewGraphOf(project, viewId, `rev${indexingRev}`);
export const VIEW_GRAPH_PREFIX = `${PREFIX}view/`;
/** Which item's graphs a view's graph holds (external store): `<item> <urn:registry:head> <graph>`. */
export const viewHeadsOf = (viewGraph: string): string => `${viewGraph}/heads`;
/** An item's metadata triples in a view that includes them (external store). */
export const viewMetadataGraphOf = (viewGraph: string, item: string): string => `${viewGraph}/meta/${encodeURIComponent(item)}`;
export const isViewGraphOf = (graph: string, project: ProjectRef): boolean =>
  graph.startsWith(`${PREFIX}view/${project}/`) && graph.slice(PREFIX.length).split('/').length === 5;
/** The view's graph a view graph, its heads graph or one of its metadata graphs belongs to (undefined: none of them). */
export const viewGraphPartOf = (graph: string): string | undefined => {
  if (!graph.startsWith(VIEW_GRAPH_PREFIX)) return undefined;
  const segments = graph.slice(PREFIX.length).split('/');
  return segments.length < 5 ? undefined : PREFIX + segments.slice(0, 5).join('/');
};
/**
 * The external store's record of the view graphs its lease holder writes: `<view graph>
 * <urn:registry:viewBuild> "building"|"complete"`, set before the first triple of the graph is
 * written and removed after its last is dropped, so whatever a holder's crash leaves is found by the next.
 */
export const VIEW_REGISTRY = `${PREFIX}views`;
export const VIEW_BUILD = `${PREFIX}viewBuild`;
/** Set in the registry once the graphs left by replicas that built their own (before the lease holder wrote them) were swept. */
export const VIEW_LEGACY_SWEPT = `${PREFIX}viewLegacySwept`;
