import type { ProjectAccess } from '../kernel/ProjectAccess.js';
import { mayReadProject } from '../kernel/ProjectAccess.js';
import type { ProjectRef } from '../kernel/labels.js';
import { rejections } from '../domain/rejections.js';
import type { ProjectState } from '../domain/projects/Project.js';
import { DEFAULT_MAPPINGS, effectiveMappings, expandMapping, isIri } from '../domain/projects/apiMappings.js';
import { schemaBase } from '../domain/schemas/schemaRef.js';
import type { Binding } from '../store/GraphStore.js';
import type { Bucket, CatalogueQueries, ItemRef, SelectedMatch } from './CatalogueQueries.js';
import type { CatalogueConditions, ListingFilter, SortKey } from './ListingQuery.js';
import { resolveId } from '../domain/projects/apiMappings.js';
import { itemNode, parseItemNode } from '../store/graphNames.js';
import { words } from '../kernel/analyzer.js';
import type { RankedQuery, TextMatcher } from './textRanking.js';
import { cursorPosition, scoreCursor } from './textRanking.js';

/** A listing as requested, before ids, CURIEs and terms are resolved against the scope. */
export interface ListingRequest extends CatalogueConditions {
  kind: string;
  /** Project scope (`org/project`), organization scope, or neither (every project). */
  project?: ProjectRef;
  org?: string;
  /** What the caller may read: pushed into the catalogue filter, so totals and cursors count only that. */
  access: ProjectAccess;
  from: number;
  size: number;
  after?: Binding[];
  locate?: string;
  /** Full text: items whose values contain these words, ranked by relevance. */
  q?: string;
  sort: string[];
}

export interface ListingResult {
  total: number;
  items: ItemRef[];
  /** Cursor of the next page, when there is one. */
  next?: Binding[];
  /** With `q`: the relevance of each item, and the best of the whole listing. */
  scores?: number[];
  maxScore?: number;
}

export interface Aggregations {
  total: number;
  projects: Bucket[];
  types: Bucket[];
}

const METADATA_SORTS: Record<string, Extract<SortKey['field'], { metadata: unknown }>['metadata']> = {
  _createdAt: 'createdAt',
  _createdBy: 'createdBy',
  _updatedAt: 'updatedAt',
  _updatedBy: 'updatedBy',
  _rev: 'rev',
  _deprecated: 'deprecated',
  '@id': 'id',
  _self: 'id',
  _constrainedBy: 'constrainedBy',
  _project: 'project',
};

/** The spec's default order: `_createdBy`, then `@id`. */
const DEFAULT_SORT: SortKey[] = [
  { field: { metadata: 'createdBy' }, descending: false },
  { field: { metadata: 'id' }, descending: false },
];

/** Listings of any kind of item at project, organization or global scope, over the catalogue. */
export interface Scopes {
  /** The project, or ProjectNotFound. */
  project(ref: ProjectRef): ProjectState;
  /** Checks the organization exists (OrganizationNotFound). */
  org(label: string): void;
  /** A `locate` value (an id or a `_self` address) as an id. */
  locate(value: string, project: ProjectState | undefined): string;
  /** The property payloads of the project (of every project when undefined) mean by a field name. */
  term(name: string, project: ProjectState | undefined): string | undefined;
}

export class Listings {
  constructor(
    private readonly queries: CatalogueQueries,
    private readonly scopes: Scopes,
    private readonly text: TextMatcher,
  ) {}

  async list(req: ListingRequest): Promise<ListingResult> {
    const filter = this.filter(req);
    if (req.q !== undefined) return this.search(req, filter);
    return this.listSorted(req, filter);
  }

  private async listSorted(req: ListingRequest, filter: ListingFilter): Promise<ListingResult> {
    if (filter.projects?.length === 0) return { total: 0, items: [] };
    const project = req.project === undefined ? undefined : this.scopes.project(req.project);
    const sort = req.sort.length ? req.sort.map((s) => this.sortKey(s, project)) : DEFAULT_SORT;
    // The cursor of `_next`: one value per sort key, then the item node.
    if (req.after && (req.after.length !== sort.length + 1 || req.after[sort.length]!.type !== 'uri'))
      throw rejections.malformedQueryParam("Query parameter 'after' does not match this listing's sort: use the cursor given in '_next'.");
    const { total, rows } = await this.queries.listing(filter, sort, {
      offset: req.after ? 0 : req.from,
      limit: req.size + 1,
      ...(req.after ? { after: req.after } : {}),
    });
    const items = rows.slice(0, req.size);
    const last = items[items.length - 1];
    return { total, items, ...(rows.length > req.size && last ? { next: last.cursor } : {}) };
  }

  /**
   * A `q` listing ranked by score, exact `@id` matches first: the text matcher ranks and pages it
   * with the listing's other conditions (on the external store, in one SPARQL query).
   */
  private async search(req: ListingRequest, filter: ListingFilter): Promise<ListingResult> {
    if (req.sort.length) return this.sortedSearch(req, filter);
    const after = req.after && cursorPosition(req.after);
    if (req.after && !after)
      throw rejections.malformedQueryParam("Query parameter 'after' does not match this listing's sort: use the cursor given in '_next'.");
    const terms = this.terms(req, filter);
    if (!terms) return { total: 0, items: [], scores: [], maxScore: 0 };
    const ranked = await this.text.rank({
      ...terms,
      filter,
      projects: this.queries.projects(filter),
      offset: req.from,
      limit: req.size + 1,
      ...(after ? { after } : {}),
    });
    const rows = ranked.rows.slice(0, req.size);
    const last = rows[rows.length - 1];
    return {
      total: ranked.total,
      items: rows.map((r) => parseItemNode(r.node)!).map(({ project, id }) => ({ project, id })),
      scores: rows.map((r) => r.score),
      maxScore: ranked.maxScore,
      ...(ranked.rows.length > req.size && last ? { next: scoreCursor(last) } : {}),
    };
  }

  /** A `q` listing in the order `sort` asks for: the matched items listed as any other listing, each with its score. */
  private async sortedSearch(req: ListingRequest, filter: ListingFilter): Promise<ListingResult> {
    const rows = await this.matches(req, filter);
    const maxScore = rows.reduce((max, r) => Math.max(max, r.score), 0);
    if (!rows.length) return { total: 0, items: [], scores: [], maxScore };
    const scores = new Map(rows.map((r) => [r.node, r.score]));
    const { q: _q, ...rest } = req;
    const listed = await this.listSorted(rest, { ...filter, items: rows.map((r) => r.node) });
    return { ...listed, scores: listed.items.map((i) => scores.get(itemNode(req.kind, i.project, i.id)) ?? 0), maxScore };
  }

  /** Every item the `q` listing selects, unordered: a sort other than by score and the aggregations take them all. */
  private async matches(req: ListingRequest, filter: ListingFilter): Promise<SelectedMatch[]> {
    const terms = this.terms(req, filter);
    if (!terms) return [];
    const matches = terms.words.length ? await this.text.match(terms.words, req.kind, this.queries.projects(filter)) : [];
    return this.queries.selectedMatches({ ...terms, filter }, matches);
  }

  /** The words of `q` and the nodes of its exact matches; nothing when the listing can select nothing. */
  private terms(req: ListingRequest, filter: ListingFilter): Pick<RankedQuery, 'words' | 'exact' | 'idNode'> | undefined {
    if (filter.projects?.length === 0) return undefined;
    const q = req.q!.trim();
    // An `@id` written as the project's mappings allow (a CURIE, a term) is found too.
    const project = req.project === undefined ? undefined : this.scopes.project(req.project);
    const id = project ? resolveId(q, project) : undefined;
    const idNode = project && id !== undefined ? itemNode(req.kind, req.project!, id) : undefined;
    return {
      words: words(q),
      // The item at `idNode`, and any whose `@id` is `q` itself, found by node.
      exact: [...(idNode === undefined ? [] : [idNode]), ...this.nodesWithId(req.kind, filter, q)],
      ...(idNode !== undefined ? { idNode } : {}),
    };
  }

  /** The node `id` would have in each project of the listing's scope (none for an id no node can spell: a lone surrogate). */
  private nodesWithId(kind: string, filter: ListingFilter, id: string): string[] {
    if (/\p{Cs}/u.test(id)) return [];
    return this.queries.projects(filter).map((p) => itemNode(kind, p, id));
  }

  async aggregate(req: ListingRequest): Promise<Aggregations> {
    const filter = this.filter(req);
    if (req.q !== undefined) return tallies(await this.matches(req, filter));
    if (filter.projects?.length === 0) return { total: 0, projects: [], types: [] };
    const [total, projects, types] = await Promise.all([
      this.queries.count(filter),
      this.queries.buckets(filter, 'project'),
      this.queries.buckets(filter, 'type'),
    ]);
    return { total, projects, types };
  }

  private filter(req: ListingRequest): ListingFilter {
    if (req.org !== undefined) this.scopes.org(req.org);
    const project = req.project === undefined ? undefined : this.scopes.project(req.project);
    const scope = project ? [`${project.org}/${project.label}`] : undefined;
    const projects = readableProjects(req.access, scope, req.org);
    return {
      kind: req.kind,
      ...(projects ? { projects } : {}),
      ...(req.org !== undefined && !project ? { org: req.org } : {}),
      ...(req.locate !== undefined ? { id: this.scopes.locate(req.locate, project) } : {}),
      // Deprecated items are left out unless asked for.
      deprecated: req.deprecated ?? false,
      ...(req.rev !== undefined ? { rev: req.rev } : {}),
      types: req.types.map((t) => resolveIri(t, project, 'vocab', 'type')),
      typeOperator: req.typeOperator,
      ...(req.createdBy !== undefined ? { createdBy: absoluteIri(req.createdBy, 'createdBy') } : {}),
      ...(req.updatedBy !== undefined ? { updatedBy: absoluteIri(req.updatedBy, 'updatedBy') } : {}),
      ...(req.createdAt ? { createdAt: req.createdAt } : {}),
      ...(req.updatedAt ? { updatedAt: req.updatedAt } : {}),
      // The catalogue records the schema itself, whatever revision a resource pins.
      ...(req.schema !== undefined ? { schema: schemaBase(resolveIri(req.schema, project, 'base', 'schema')) } : {}),
    };
  }

  private sortKey(raw: string, project: ProjectState | undefined): SortKey {
    const descending = raw.startsWith('-');
    const name = descending ? raw.slice(1) : raw;
    const metadata = METADATA_SORTS[name];
    if (metadata) return { field: { metadata }, descending };
    if (name === '' || name.startsWith('_')) throw rejections.malformedQueryParam(`Cannot sort by '${raw}'.`);
    // A bare field name is the property the payloads mean by it; failing that, a term of the vocab.
    const learned = /^[^\s:/?#]+$/.test(name) ? this.scopes.term(name, project) : undefined;
    return { field: { predicate: learned ?? resolveIri(name, project, 'vocab', 'sort') }, descending };
  }
}

/** The `projects` and `types` buckets of the items of a `q` listing, in the order the SPARQL aggregation gives. */
const tallies = (rows: SelectedMatch[]): Aggregations => {
  const count = (keys: (r: SelectedMatch) => readonly string[]): Bucket[] => {
    const counts = new Map<string, number>();
    for (const r of rows) for (const key of keys(r)) counts.set(key, (counts.get(key) ?? 0) + 1);
    return [...counts].map(([key, n]) => ({ key, count: n })).sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  };
  return { total: rows.length, projects: count((r) => [r.project]), types: count((r) => r.types) };
};

/**
 * The projects a listing may cover: its scope (one project, or all) narrowed to what the caller may
 * read. Undefined means every project; an empty list means none.
 */
export const readableProjects = (access: ProjectAccess, scope: ProjectRef[] | undefined, org: string | undefined): ProjectRef[] | undefined => {
  if (access.mode === 'all') return scope;
  if (scope) return scope.filter((p) => mayReadProject(access, p));
  // Organization-wide grants admit every project of the organization, including ones created later.
  if (org !== undefined && access.orgs.includes(org)) return undefined;
  return access.projects.filter((p) => org === undefined || p.startsWith(`${org}/`));
};

const absoluteIri = (value: string, param: string): string => {
  if (!isIri(value)) throw rejections.malformedQueryParam(`Query parameter '${param}' must be an absolute IRI, got '${value}'.`);
  return value;
};

/**
 * A query value naming an IRI: an alias or CURIE of the project's mappings (the default mappings
 * outside a project), an absolute IRI, else a term of the project's vocab (or base).
 */
export const resolveIri = (value: string, project: ProjectState | undefined, relative: 'base' | 'vocab', param: string): string => {
  const mapped = expandMapping(value, project ? effectiveMappings(project) : DEFAULT_MAPPINGS);
  if (mapped !== undefined) return mapped;
  if (isIri(value)) return value;
  if (project && /^[^\s:/?#]+$/.test(value)) return project[relative] + value;
  throw rejections.malformedQueryParam(`Query parameter '${param}' must be an IRI, a CURIE or a term, got '${value}'.`);
};
