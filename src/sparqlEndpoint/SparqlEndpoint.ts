import { rejections } from '../domain/rejections.js';
import type { ApiMapping, ProjectState } from '../domain/projects/Project.js';
import { resolveId } from '../domain/projects/apiMappings.js';
import type { ProjectRef } from '../kernel/labels.js';
import { NXV } from '../kernel/vocabulary.js';
import type { ProjectSparqlStore, QueryAnswer } from '../store/ProjectSparqlStore.js';
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
}

/** Picks the media type to answer in among those offered, from the request's `Accept`. */
export type Chooser = (offered: string[]) => string | undefined;

/** `PREFIX` names SPARQL can spell. */
const PREFIX_NAME = /^[A-Za-z][\w.-]*$/;

/** Spec: the per-project SPARQL endpoint over the project's dataset (see `ProjectSparqlStore`). */
export class SparqlEndpoint {
  constructor(
    private readonly projects: { fetch(ref: ProjectRef): ProjectState },
    private readonly store: ProjectSparqlStore,
  ) {}

  async query(project: ProjectRef, viewId: string, request: SparqlRequest, choose: Chooser): Promise<QueryAnswer> {
    this.view(project, viewId);
    if (request.update) throw sparqlRejections.unsupportedOperation('SPARQL Update');
    if (request.query === undefined || request.query.trim() === '') throw sparqlRejections.missingQuery();
    const form = readUserQuery(request.query);
    const offered = [...answerTypes[form]];
    const chosen = choose([...offered, 'application/json']);
    if (chosen === undefined) throw rejections.notAcceptable(offered);
    // Plain JSON asks for the form's JSON answer.
    const mediaType = chosen === 'application/json' ? (form === 'select' || form === 'ask' ? offered[0]! : 'application/ld+json') : chosen;
    const graphs = {
      ...(request.defaultGraphs.length ? { defaultGraphs: request.defaultGraphs } : {}),
      ...(request.namedGraphs.length ? { namedGraphs: request.namedGraphs } : {}),
    };
    try {
      return await this.store.query({ project, query: request.query, form, mediaType, ...graphs });
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
        case 'crashed':
          throw sparqlRejections.queryWorkerCrashed();
      }
    }
  }

  /** The prefixes the query page starts with: the project's own api mappings SPARQL can spell. */
  prefixes(project: ProjectRef, viewId: string): ApiMapping[] {
    const state = this.view(project, viewId);
    return state.apiMappings.filter((m) => PREFIX_NAME.test(m.prefix));
  }

  /** The project, once `viewId` names its default SPARQL view (the only one it has). */
  private view(project: ProjectRef, viewId: string): ProjectState {
    const state = this.projects.fetch(project);
    if (viewId !== 'graph' && resolveId(viewId, state) !== DEFAULT_SPARQL_VIEW) throw sparqlRejections.viewNotFound(viewId, project);
    return state;
  }
}
