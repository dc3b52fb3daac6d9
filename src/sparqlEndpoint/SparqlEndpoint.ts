import { rejections } from '../domain/rejections.js';
import type { Listed } from '../domain/KindDefinition.js';
import type { ApiMapping, ProjectState } from '../domain/projects/Project.js';
import { resolveId } from '../domain/projects/apiMappings.js';
import type { Caller } from '../kernel/Caller.js';
import type { ProjectRef } from '../kernel/labels.js';
import { NXV } from '../kernel/vocabulary.js';
import type { ProjectQuery, ProjectSparqlStore, QueryAnswer, QueryForm } from '../store/ProjectSparqlStore.js';
import { answerTypes, QueryFailed } from '../store/ProjectSparqlStore.js';
import { sparqlRejections } from './sparqlRejections.js';
import { readUserQuery } from './userQuery.js';

/** The project's default SPARQL view; `graph` is its alias. */
export const DEFAULT_SPARQL_VIEW = `${NXV}defaultSparqlIndex`;

/** A SPARQL 1.1 Protocol request, as read from the query string or the body. */
export interface SparqlRequest {
  query?: string;
  /** An update was sent (`update=`, `application/sparql-update`): refused. */
  update?: boolean;
  defaultGraphs: string[];
  namedGraphs: string[];
  /** Time travel: the default graph as of an instant or a tag (`at=`, `tag=`). */
  asOf?: AsOf;
}

/** The project's items as they were at an ISO instant, or at the revisions a tag names. */
export type AsOf = { at: string } | { tag: string };

/** A user-defined view's selection, tried on an item as it was at a revision (time travel on the view). */
export type AsOfSelection = (item: Listed) => boolean;

/**
 * The revision graphs of a project's default graph as of an instant or a tag (the history module);
 * with `selects`, those of a view's: each item's revision of then that passes it.
 */
export interface AsOfGraphsSource {
  graphs(project: ProjectRef, asOf: AsOf, selects?: AsOfSelection): Promise<string[]>;
}

/** Picks the media type to answer in among those offered, from the request's `Accept`. */
export type Chooser = (offered: string[]) => string | undefined;

/** One dataset a view queries: the project's own (no `view`) or a user-defined view's graph (`viewGraphOf`). */
export interface ViewDataset {
  project: ProjectRef;
  view?: string;
  /** Time travel on the view: its selection, or why its dataset cannot be taken as of then. */
  asOf?: { selects: AsOfSelection } | { refused: string };
}

/**
 * The views other than the project's default SPARQL view (the views module): the datasets a view
 * queries, once the caller may query each; undefined when `viewId` names the default view.
 */
export interface SparqlViews {
  datasets(project: ProjectRef, viewId: string, caller: Caller): Promise<ViewDataset[] | undefined>;
}

/** What answers from several datasets (an aggregate view) are merged in, by form: Delta concatenates its namespaces' answers. */
const MERGEABLE: Record<QueryForm, string> = {
  select: 'application/sparql-results+json',
  ask: 'application/sparql-results+json',
  construct: 'application/n-triples',
  describe: 'application/n-triples',
};

/** `PREFIX` names SPARQL can spell. */
const PREFIX_NAME = /^[A-Za-z][\w.-]*$/;

/** Spec: the per-project SPARQL endpoint over the project's dataset (see `ProjectSparqlStore`). */
export class SparqlEndpoint {
  constructor(
    private readonly projects: { fetch(ref: ProjectRef): ProjectState },
    private readonly store: ProjectSparqlStore,
    private readonly views?: SparqlViews,
    private readonly asOf?: AsOfGraphsSource,
  ) {}

  /** `callerKey`: who the query counts against (`callerKey` of the HTTP layer), for the store's fair share of its query workers. */
  async query(project: ProjectRef, viewId: string, request: SparqlRequest, choose: Chooser, caller?: Caller, callerKey?: string): Promise<QueryAnswer> {
    const who = callerKey === undefined ? {} : { caller: callerKey };
    const datasets = caller && this.views ? await this.views.datasets(project, viewId, caller) : undefined;
    if (!datasets) this.view(project, viewId);
    if (request.update) throw sparqlRejections.unsupportedOperation('SPARQL Update');
    if (request.query === undefined || request.query.trim() === '') throw sparqlRejections.missingQuery();
    if (request.asOf && (!this.asOf || request.defaultGraphs.length || request.namedGraphs.length))
      throw rejections.malformedQueryParam(
        "Query parameters 'at' and 'tag' select the default graph of the view; they take no 'default-graph-uri' or 'named-graph-uri'.",
      );
    const selects = request.asOf && datasets ? this.travelled(viewId, datasets) : undefined;
    const form = readUserQuery(request.query);
    if (datasets && datasets.length !== 1) return this.merged(datasets, request.query, form, choose, who);
    const offered = [...answerTypes[form]];
    const chosen = choose([...offered, 'application/json']);
    if (chosen === undefined) throw rejections.notAcceptable(offered);
    // Plain JSON asks for the form's JSON answer.
    const mediaType = chosen === 'application/json' ? (form === 'select' || form === 'ask' ? offered[0]! : 'application/ld+json') : chosen;
    const graphs = {
      ...(request.defaultGraphs.length ? { defaultGraphs: request.defaultGraphs } : {}),
      ...(request.namedGraphs.length ? { namedGraphs: request.namedGraphs } : {}),
    };
    const only = datasets?.[0];
    if (request.asOf) {
      const graphs = await this.asOf!.graphs(only?.project ?? project, request.asOf, selects);
      // A view's named graphs are those of what it selects: as of then, the same revision graphs.
      const dataset = only ? { defaultGraphs: graphs, namedGraphs: graphs } : { asOf: graphs };
      return this.ask({ project: only?.project ?? project, query: request.query, form, mediaType, ...dataset, ...who });
    }
    // A view's dataset is its own graph and its members' graphs, whatever the request names.
    if (only?.view !== undefined) return this.ask({ project: only.project, query: request.query, form, mediaType, view: only.view, ...who });
    return this.ask({ project: only?.project ?? project, query: request.query, form, mediaType, ...graphs, ...who });
  }

  /** A user-defined view's selection for time travel, once it has one (a single SparqlView, no tag filter, no metadata). */
  private travelled(viewId: string, datasets: ViewDataset[]): AsOfSelection {
    const asOf = datasets.length === 1 ? datasets[0]!.asOf : { refused: 'an aggregate view merges its members, each its own dataset' };
    if (asOf === undefined) throw sparqlRejections.timeTravelUnsupported(viewId, 'it selects nothing of its own');
    if ('refused' in asOf) throw sparqlRejections.timeTravelUnsupported(viewId, asOf.refused);
    return asOf.selects;
  }

  /** An aggregate view's answer: each member's, concatenated (rows, triples; ASK: any). */
  private async merged(datasets: ViewDataset[], query: string, form: QueryForm, choose: Chooser, who: { caller?: string }): Promise<QueryAnswer> {
    const mediaType = MERGEABLE[form];
    if (choose([mediaType, 'application/json']) === undefined) throw rejections.notAcceptable([mediaType]);
    const answers = await Promise.all(
      datasets.map((d) => this.ask({ project: d.project, query, form, mediaType, ...(d.view !== undefined ? { view: d.view } : {}), ...who })),
    );
    if (form === 'construct' || form === 'describe')
      return { mediaType, body: [...new Set(answers.flatMap((a) => a.body.split('\n')).filter((l) => l.trim() !== ''))].map((l) => `${l}\n`).join('') };
    const parsed = answers.map((a) => JSON.parse(a.body) as { head: { vars?: string[] }; boolean?: boolean; results?: { bindings: unknown[] } });
    if (form === 'ask') return { mediaType, body: JSON.stringify({ head: {}, boolean: parsed.some((p) => p.boolean === true) }) };
    const vars = [...new Set(parsed.flatMap((p) => p.head.vars ?? []))];
    return { mediaType, body: JSON.stringify({ head: { vars }, results: { bindings: parsed.flatMap((p) => p.results?.bindings ?? []) } }) };
  }

  private async ask(query: ProjectQuery): Promise<QueryAnswer> {
    try {
      return await this.store.query(query);
    } catch (error) {
      if (!(error instanceof QueryFailed)) throw error;
      const reason = error.reason;
      switch (reason.failure) {
        case 'invalid':
          throw sparqlRejections.malformedQuery(reason.message);
        case 'timeout':
          throw sparqlRejections.queryTimeout(reason.millis);
        case 'busy':
          throw sparqlRejections.queryServiceBusy(reason.millis);
        case 'tooLarge':
          throw sparqlRejections.resultTooLarge(reason.limit);
        case 'viewTooLarge':
          throw sparqlRejections.viewTooLarge(reason.limit);
        case 'crashed':
          throw sparqlRejections.queryWorkerCrashed();
      }
    }
  }

  /** The prefixes the query page starts with: the project's own api mappings SPARQL can spell. */
  prefixes(project: ProjectRef, viewId: string): ApiMapping[] {
    const state = this.projects.fetch(project);
    return state.apiMappings.filter((m) => PREFIX_NAME.test(m.prefix));
  }

  /** The project, once `viewId` names its default SPARQL view (the only one it has). */
  private view(project: ProjectRef, viewId: string): ProjectState {
    const state = this.projects.fetch(project);
    if (viewId !== 'graph' && resolveId(viewId, state) !== DEFAULT_SPARQL_VIEW) throw sparqlRejections.viewNotFound(viewId, project);
    return state;
  }
}
