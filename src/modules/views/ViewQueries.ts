import type { AclCheck } from '../../kernel/AclCheck.js';
import type { CheckedPermission } from '../../kernel/permissions.js';
import { rejections } from '../../domain/rejections.js';
import type { Caller } from '../../kernel/Caller.js';
import type { ItemRef } from '../../kernel/ItemRef.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { Rejection } from '../../kernel/Rejection.js';
import { searchWithDocuments } from '../../search/dsl/executeSearch.js';
import type { SearchResponse } from '../../search/dsl/executeSearch.js';
import type { CpuTurns } from '../../workers/CpuTurns.js';
import type { SearchDoc } from '../../search/dsl/fields.js';
import type { ViewDataset } from '../../sparqlEndpoint/SparqlEndpoint.js';
import { viewGraphOf } from '../../store/graphNames.js';
import type { ViewState } from './View.js';
import { isAggregate, isSparqlFamily } from './View.js';
import { DEFAULT_ES_VIEW, DEFAULT_SPARQL_VIEW } from './viewDefinition.js';
import type { ViewIndexes } from './ViewIndexes.js';
import { viewRejections } from './viewRejections.js';
import { asOfSelection } from './viewSelection.js';
import { keywordPaths, withKeywords } from './viewMapping.js';
import type { ViewService } from './ViewService.js';

/** The project's default Elasticsearch view: the search engine over the project's documents. */
export interface DefaultSearch {
  query(project: ProjectRef, body: unknown): Promise<SearchResponse>;
  documents(project: ProjectRef): Promise<readonly SearchDoc[]>;
}

/** The index name a hit shows (`_index`): one per view, as Delta has one index per view. */
const indexName = (v: ViewState) => `view_${v.project.replace('/', '_')}_${encodeURIComponent(v.id)}_${v.value.indexingRev}`;

/**
 * Queries over views: `_search` over an Elasticsearch view's documents, the datasets a SPARQL view
 * queries; an aggregate view answers with its members (aggregates included, each once), those
 * whose permission the caller holds on their project; none: AuthorizationFailed.
 */
export class ViewQueries {
  constructor(
    private readonly deps: {
      views: ViewService;
      indexes: ViewIndexes;
      acl: AclCheck;
      search?: DefaultSearch;
      searchBudgetMillis: number;
      /** Searches run in slices, in turn with every other search, so that other requests are answered meanwhile. */
      turns: CpuTurns;
    },
  ) {}

  async search(item: ItemRef, body: unknown, caller: Caller): Promise<SearchResponse> {
    const project = item.project;
    const view = this.queried(item, false);
    await this.authorize(view, caller);
    if (view.id === DEFAULT_ES_VIEW && view.value.fields.type === 'ElasticSearchView') return this.defaultSearch().query(project, body);
    if (!isAggregate(view.value.fields.type)) {
      const ready = await this.deps.indexes.ready(view.project, view.id);
      const read = withKeywords(body, keywordPaths(view.value.fields.mapping));
      const documents = ready?.index.documents() ?? [];
      return (await this.deps.turns.run((turn) => searchWithDocuments(read, documents, () => indexName(view), 1, this.deps.searchBudgetMillis, turn))).response;
    }
    // An aggregate: its members' documents as one set, each hit naming its member's index.
    const members = await this.members(view, caller);
    const docs: SearchDoc[] = [];
    const names = new Map<SearchDoc, string>();
    for (const member of members) {
      const own =
        member.id === DEFAULT_ES_VIEW
          ? await this.defaultSearch().documents(member.project)
          : ((await this.deps.indexes.ready(member.project, member.id))?.index.documents().docs ?? []);
      for (const doc of own) (docs.push(doc), names.set(doc, indexName(member)));
    }
    return (await this.deps.turns.run((turn) => searchWithDocuments(body, docs, (d) => names.get(d) ?? '', members.length, this.deps.searchBudgetMillis, turn)))
      .response;
  }

  /** The SPARQL datasets of a view; undefined for the project's default SPARQL view (the project's endpoint answers). */
  async datasets(project: ProjectRef, idSegment: string, caller: Caller): Promise<ViewDataset[] | undefined> {
    const view = this.queried(this.deps.views.named(project, idSegment), true);
    if (view.id === DEFAULT_SPARQL_VIEW) return undefined;
    await this.authorize(view, caller);
    const aggregate = isAggregate(view.value.fields.type);
    const members = aggregate ? await this.members(view, caller) : [view];
    const datasets: ViewDataset[] = [];
    for (const member of members) {
      const asOf = aggregate ? { refused: 'an aggregate view merges its members, each its own dataset' } : asOfSelection(member.value.fields.filters!);
      if (member.id === DEFAULT_SPARQL_VIEW) datasets.push({ project: member.project, asOf });
      else {
        // A view not indexed (stopped meanwhile) has no graph: an empty dataset, never the project's.
        const graph = (await this.deps.indexes.ready(member.project, member.id))?.graph;
        datasets.push({ project: member.project, view: graph ?? viewGraphOf(member.project, member.id, 'none'), asOf });
      }
    }
    return datasets;
  }

  /** A view of the family the endpoint queries, not deprecated. */
  private queried(item: ItemRef, sparql: boolean): ViewState {
    const view = this.deps.views.located(item, false);
    if (isSparqlFamily(view.value.fields.type) !== sparql) throw viewRejections.notFound(view.id, item.project);
    if (view.deprecated) throw viewRejections.isDeprecated(view.id);
    return view;
  }

  private defaultSearch(): DefaultSearch {
    if (!this.deps.search) throw rejections.routeNotFound();
    return this.deps.search;
  }

  private permission(view: ViewState): string {
    return view.value.fields.filters?.permission ?? 'views/query';
  }

  private authorize(view: ViewState, caller: Caller): Promise<void> {
    return this.deps.acl.authorize(caller, this.permission(view) as CheckedPermission, `/${view.project}`);
  }

  /** The indexing views an aggregate reaches (through nested aggregates), those the caller may query. */
  private async members(root: ViewState, caller: Caller): Promise<ViewState[]> {
    const seen = new Set<string>();
    const found: ViewState[] = [];
    const visit = async (view: ViewState): Promise<void> => {
      for (const ref of view.value.fields.views ?? []) {
        const key = `${ref.project} ${ref.viewId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const member = this.deps.views.find(ref.project, this.deps.views.memberId(ref.project, ref.viewId));
        if (!member || member.deprecated) continue;
        if (isAggregate(member.value.fields.type)) await visit(member);
        else if (await this.allowed(member, caller)) found.push(member);
      }
    };
    await visit(root);
    if (!found.length) throw rejections.authorizationFailed();
    return found;
  }

  private async allowed(view: ViewState, caller: Caller): Promise<boolean> {
    try {
      await this.authorize(view, caller);
      return true;
    } catch (error) {
      if (error instanceof Rejection && error.type === 'AuthorizationFailed') return false;
      throw error;
    }
  }
}
