import type { ProjectRef } from '../kernel/labels.js';

/**
 * The public naming scheme of the triple store (documented in the README):
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
 * rebuilt view never meets its former graph's triples. In an external store `build` names the
 * replica too (each replica keeps its own, see the README).
 */
export const viewGraphOf = (project: ProjectRef, viewId: string, build: string): string =>
  `${PREFIX}view/${project}/${encodeURIComponent(viewId)}/${encodeURIComponent(build)}`;
/** Which item's graphs a view's graph holds (external store): `<item> <urn:registry:head> <graph>`. */
export const viewHeadsOf = (viewGraph: string): string => `${viewGraph}/heads`;
/** An item's metadata triples in a view that includes them (external store). */
export const viewMetadataGraphOf = (viewGraph: string, item: string): string => `${viewGraph}/meta/${encodeURIComponent(item)}`;
export const isViewGraphOf = (graph: string, project: ProjectRef): boolean =>
  graph.startsWith(`${PREFIX}view/${project}/`) && graph.slice(PREFIX.length).split('/').length === 5;
