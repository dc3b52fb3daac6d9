import { readFileSync } from 'node:fs';
import { ConfigError } from '../kernel/ConfigError.js';
import type { ProjectAccess } from '../kernel/ProjectAccess.js';
import { mayReadProject } from '../kernel/ProjectAccess.js';
import type { ProjectRef } from '../kernel/labels.js';
import { searchWithDocuments } from './dsl/executeSearch.js';
import type { SearchResponse } from './dsl/executeSearch.js';
import type { SearchEngine } from './SearchEngine.js';
import type { SearchedDocuments } from './SearchedDocuments.js';
import type { JsonObject } from '../kernel/json.js';
import { searchRejections } from './searchRejections.js';
import { rejections } from '../domain/rejections.js';
import { Rejection } from '../kernel/Rejection.js';
import { sourceFilter } from './dsl/sourceFilter.js';
import type { CpuTurns, Turn } from '../workers/CpuTurns.js';

export interface Suite {
  name: string;
  projects: ProjectRef[];
}

export interface SearchSettings {
  /** Suite name → projects. */
  suites: Readonly<Record<string, readonly ProjectRef[]>>;
  /** The JSON file `GET /v1/search/config` answers with, read once at start. */
  fieldsFile?: string;
  /** A search's time budget: the time it runs on the event loop, its waits for a turn not counted. */
  timeoutMillis?: number;
  /** The event loop's turns searches run in (a slice at a time, so that other requests are answered meanwhile); none: in one go. */
  turns?: CpuTurns;
  /**
   * A resource as its fetch answers it (compacted with its own context, with the `_` metadata):
   * what a hit shows as `_source`. Documents are matched as their payload was written; compacting
   * each write for the index would cost a tenth of a create.
   */
  fetched?: (project: ProjectRef, id: string) => Promise<JsonObject>;
}

const readable = (access: ProjectAccess) => (project: ProjectRef) => mayReadProject(access, project);

/** AuthorizationFailed unless the caller holds `views/query` somewhere. */
const searcher = (access: ProjectAccess): void => {
  if (access.mode === 'limited' && !access.projects.length && !access.orgs.length) throw rejections.authorizationFailed();
};

/**
 * The search API (spec 4.6): one search projection per project, the current non-deprecated
 * resources as a fetch returns them, searched with the Elasticsearch query DSL in the projects the
 * caller may query, all of them or a suite's.
 */
export class SearchService {
  private readonly fields: string | undefined;

  constructor(
    /**
     * What runs the searches: the in-process evaluator over the text index's documents (the embedded
     * default, `inProcessEngine`), or with the external store the store itself (StoreSearchEngine).
     */
    private readonly engine: SearchEngine,
    /** How far the search projection of a project is: the log position of the last event it applied (undefined: none yet). */
    private readonly positionOf: (project: ProjectRef) => number | undefined,
    /** Every existing project. */
    private readonly projects: () => Iterable<ProjectRef>,
    private readonly settings: SearchSettings,
  ) {
    if (settings.fieldsFile !== undefined) {
      let text: string;
      try {
        text = readFileSync(settings.fieldsFile, 'utf8');
        JSON.parse(text);
      } catch (error) {
        throw new ConfigError('SEARCH_FIELDS', `'${settings.fieldsFile}' cannot be read as JSON: ${(error as Error).message}`);
      }
      this.fields = text;
    }
  }

  /** Searches every project the caller may query. */
  query(body: unknown, access: ProjectAccess): Promise<SearchResponse> {
    return this.run(body, [...this.projects()].filter(readable(access)));
  }

  /** Searches a suite's projects and the added ones, among those the caller may query. */
  querySuite(name: string, added: ProjectRef[], body: unknown, access: ProjectAccess): Promise<SearchResponse> {
    const suite = this.suite(name);
    const existing = new Set(this.projects());
    const scope = [...new Set([...suite.projects, ...added])].filter((p) => existing.has(p) && readable(access)(p));
    return this.run(body, scope);
  }

  suite(name: string): Suite {
    const projects = Object.hasOwn(this.settings.suites, name) ? this.settings.suites[name] : undefined;
    if (!projects) throw searchRejections.unknownSuite(name);
    return { name, projects: [...projects] };
  }

  /**
   * A suite as a caller sees it: only the projects it may query, as a suite query would search
   * (a suite's projects are not shown to whom cannot search them). Someone who may query no
   * project at all has no use for suites: AuthorizationFailed.
   */
  suiteFor(name: string, access: ProjectAccess): Suite {
    searcher(access);
    const suite = this.suite(name);
    return { name, projects: suite.projects.filter(readable(access)) };
  }

  /** The text of the fields configuration file, unchanged: for whoever may query some project (it lays out search results). */
  config(access: ProjectAccess): string {
    searcher(access);
    if (this.fields === undefined) throw searchRejections.searchConfigUnavailable();
    return this.fields;
  }

  /** How far the project's search projection is: the log position of the last event it applied. */
  offset(project: ProjectRef): number | undefined {
    return this.positionOf(project);
  }

  private async run(body: unknown, projects: ProjectRef[]): Promise<SearchResponse> {
    const search = (turn?: Turn) => this.engine.search(body, projects, turn);
    const turns = this.engine.inProcess ? this.settings.turns : undefined;
    const { response, hitDocuments } = await (turns ? turns.run(search) : search());
    const fetched = this.settings.fetched;
    if (!fetched) return response;
    // The body was read by the search: its `_source` is valid.
    const filter = sourceFilter((body as Record<string, unknown>)['_source']);
    await Promise.all(
      response.hits.hits.map(async (hit, at) => {
        if (!filter || hit._source === undefined) return;
        try {
          hit._source = filter(await fetched(hitDocuments[at]!.project, hit._id));
        } catch (error) {
          // Gone since it matched (deprecated, deleted): the hit keeps the document it matched as.
          if (!(error instanceof Rejection)) throw error;
        }
      }),
    );
    return response;
  }
}

/** The embedded default: the query DSL evaluated in process over the documents' columns (DocSet), kept per scope. */
export const inProcessEngine = (documents: SearchedDocuments, timeoutMillis: number | undefined): SearchEngine => ({
  inProcess: true,
  search: (body, projects, turn) => searchWithDocuments(body, documents.of(projects), (d) => indexName(d.project), projects.length, timeoutMillis, turn),
});

/** The name of a project's search index in responses (`_index`). */
export const indexName = (project: ProjectRef): string => `search_${project.replace('/', '_')}`;
