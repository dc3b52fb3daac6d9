import type { Listed } from '../../domain/KindDefinition.js';
import { itemNode, revisionGraph, sharedViewGraphOf } from '../../store/graphNames.js';
import type { ViewMember } from '../../store/ProjectSparqlStore.js';
import type { AsOfSelection } from '../../sparqlEndpoint/SparqlEndpoint.js';
import type { ViewFilters, ViewState } from './View.js';
import { isAggregate } from './View.js';
import { isDefaultView } from './viewDefinition.js';

/** An item's metadata as N-Triples (`_rev`, `_createdAt`...), for a SPARQL view that includes it. */
export type MetadataOf = (kind: string, listed: Listed) => string;

/** Whether the view is indexed: a user-defined indexing view, not deprecated (the default views are the project's own). */
const isIndexed = (view: ViewState): boolean => !view.deprecated && !isAggregate(view.value.fields.type) && !isDefaultView(view.id);

/** A SPARQL view's graph in a store every replica shares: one per view and index revision, written by the store's lease holder. */
export const sharedGraphOf = (view: ViewState): string | undefined =>
  isIndexed(view) && view.value.fields.type === 'SparqlView' ? sharedViewGraphOf(view.project, view.id, view.value.indexingRev) : undefined;

/** The revision of the item the view's filters select (undefined: none). */
export const selectedRev = (f: ViewFilters, listed: Listed, tags: Record<string, number>): number | undefined => {
  if (listed.deprecated && !f.includeDeprecated) return undefined;
  if (f.resourceSchemas.length && !f.resourceSchemas.includes(listed.schema)) return undefined;
  if (f.resourceTypes.length && !listed.types.some((t) => f.resourceTypes.includes(t))) return undefined;
  if (f.resourceTag === undefined) return listed.rev;
  return tags[f.resourceTag];
};

/**
 * A SparqlView's selection as of an instant or a tag: its filters tried on each item as it was
 * then. A tag filter picks a revision by a tag of today, and metadata is written of the current
 * revision only: neither has an answer as of then.
 */
export const asOfSelection = (f: ViewFilters): { selects: AsOfSelection } | { refused: string } => {
  if (f.resourceTag !== undefined) return { refused: `it selects the revisions tagged '${f.resourceTag}' (resourceTag)` };
  if (f.includeMetadata) return { refused: 'it holds the metadata of current revisions (includeMetadata)' };
  return { selects: (item) => selectedRev(f, item, {}) !== undefined };
};

/** The item as a SPARQL view's graph holds it: its selected revision's graph, with its metadata if the view includes it (`graph` undefined: not selected). */
export const sparqlMemberOf = (
  view: ViewState,
  kind: string,
  listed: Listed | undefined,
  tags: Record<string, number>,
  metadataOf: MetadataOf,
  item: string,
): ViewMember => {
  const f = view.value.fields.filters!;
  const rev = listed && listed.project === view.project ? selectedRev(f, listed, tags) : undefined;
  if (rev === undefined || !listed) return { item, graph: undefined };
  const member: ViewMember = { item, graph: revisionGraph(kind, listed.project, listed.id, rev) };
  if (f.includeMetadata) member.metadata = metadataOf(kind, listed);
  return member;
};

/** The node naming the item in views' graphs. */
export const memberItem = (kind: string, listed: Listed): string => itemNode(kind, listed.project, listed.id);
