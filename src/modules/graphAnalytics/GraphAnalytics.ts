import { resolveId } from '../../domain/projects/apiMappings.js';
import type { ProjectState } from '../../domain/projects/Project.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { projectStatistics } from '../../domain/projects/projectStatistics.js';
import type { ProjectStatistics } from '../../domain/projects/projectStatistics.js';
import type { ProjectItemStates } from '../../projection/ProjectItemStates.js';
import { listedPages } from '../../projection/ProjectItemStates.js';
import { SparqlEndpoint } from '../../sparqlEndpoint/SparqlEndpoint.js';
import type { ProjectSparqlStore } from '../../store/ProjectSparqlStore.js';
import { Statement } from '../../store/sparql.js';
import { n } from '../../store/sparqlTerms.js';
import { Lru } from '../../util/Lru.js';
import { dataTypeOf, nameOf } from './analyticsNames.js';
import { graphAnalyticsRejections } from './graphAnalyticsRejections.js';

const nodesQuery = new Statement('analytics-nodes').bound({});
const edgesQuery = new Statement('analytics-edges').bound({});
const propertiesStatement = new Statement('analytics-properties');
const typeCountStatement = new Statement('analytics-type-count');

export interface Node {
  '@id': string;
  _name: string;
  _count: number;
}
export interface EdgePath {
  '@id': string;
  _name: string;
}
export interface Edge {
  _source: string;
  _target: string;
  _count: number;
  _path: EdgePath[];
}
/** Delta's AnalyticsGraph. */
export interface Relationships {
  _nodes: Node[];
  _edges: Edge[];
}
/** Delta's PropertiesStatistics, with the data types of each path's values besides. */
export interface Properties {
  '@id': string;
  _name: string;
  _count: number;
  _dataTypes?: string[];
  _properties?: Properties[];
}

type Binding = Record<string, { value: string } | undefined>;

interface Deps {
  projects: { fetch(ref: ProjectRef): ProjectState };
  store: ProjectSparqlStore;
  /** A project's items over every kind: what its default graph was built from, for the progress. */
  items: ProjectItemStates;
  /** The log position the store holds: an answer computed at a position holds until it moves. */
  storePosition(): number;
}

const byCount = <T extends { _count: number; '@id'?: string; _name?: string }>(a: T, b: T) =>
  b._count - a._count || (a['@id'] ?? a._name ?? '').localeCompare(b['@id'] ?? b._name ?? '');

const edgeKey = (e: Edge) => [e._source, e._target, ...e._path.map((p) => p['@id'])].join(' ');

/**
 * Delta's graph analytics (the graph-analytics plugin) as SPARQL aggregations over the project's
 * current graphs: the project's default SPARQL dataset, which holds the head revision of every
 * current, non-deprecated item, in either store. Nothing is kept besides: the answers are as fresh
 * as the store, and the queries run under the SPARQL endpoint's budgets and workers (the event
 * loop is never held by an aggregation).
 *
 * Nodes are the typed IRI subjects of those graphs (the resources and the identified nodes they
 * embed), edges a property or two through an embedded blank node from one to another; properties
 * nest through embedded blank nodes, three levels deep.
 */
export class GraphAnalytics {
  private readonly endpoint: SparqlEndpoint;
  /**
   * Answers by project and question, with the store position they were asked at: read again at
   * the same position (nothing written anywhere since), the store holds the same graphs.
   */
  private readonly answers = new Lru<string, { position: number; answer: Promise<unknown> }>(256);

  constructor(private readonly deps: Deps) {
    this.endpoint = new SparqlEndpoint(deps.projects, deps.store);
  }

  relationships(project: ProjectRef, caller?: string): Promise<Relationships> {
    return this.remembered(`${project} relationships`, () => this.computeRelationships(project, caller));
  }

  /** `typeSegment`: an `{id}` segment, resolved as the project resolves ids (mappings, absolute IRI, base). */
  properties(project: ProjectRef, typeSegment: string, caller?: string): Promise<Properties> {
    const type = resolveId(typeSegment, this.deps.projects.fetch(project));
    if (type === undefined) throw graphAnalyticsRejections.invalidPropertyType(typeSegment);
    return this.remembered(`${project} properties ${type}`, () => this.computeProperties(project, type, caller));
  }

  private remembered<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const position = this.deps.storePosition();
    const kept = this.answers.get(key);
    if (kept && kept.position === position) return kept.answer as Promise<T>;
    const answer = compute();
    this.answers.set(key, { position, answer });
    // A failed answer (over budget, busy) is not kept.
    answer.catch(() => {
      if (this.answers.get(key)?.answer === answer) this.answers.set(key, { position: -1, answer });
    });
    return answer;
  }

  private async computeRelationships(project: ProjectRef, caller?: string): Promise<Relationships> {
    const [nodeRows, edgeRows] = await Promise.all([this.select(project, nodesQuery, caller), this.select(project, edgesQuery, caller)]);
    const nodes = nodeRows.map((b) => ({ '@id': b['type']!.value, _name: nameOf(b['type']!.value), _count: Number(b['count']!.value) })).sort(byCount);
    const known = new Set(nodes.map((node) => node['@id']));
    const edges = edgeRows
      .filter((b) => known.has(b['source']!.value) && known.has(b['target']!.value))
      .map((b) => ({
        _source: b['source']!.value,
        _target: b['target']!.value,
        _count: Number(b['count']!.value),
        _path: [b['p1'], b['p2']].flatMap((p) => (p === undefined ? [] : [{ '@id': p.value, _name: nameOf(p.value) }])),
      }))
      .sort((a, b) => b._count - a._count || edgeKey(a).localeCompare(edgeKey(b)));
    return { _nodes: nodes, _edges: edges };
  }

  private async computeProperties(project: ProjectRef, type: string, caller?: string): Promise<Properties> {
    const [countRows, pathRows] = await Promise.all([
      this.select(project, typeCountStatement.bound({ type: n(type) }), caller),
      this.select(project, propertiesStatement.bound({ type: n(type) }), caller),
    ]);
    const root: Properties = { '@id': type, _name: nameOf(type), _count: Number(countRows[0]?.['count']?.value ?? 0) };
    // Shorter paths first, so each path's parent exists when it is reached.
    const rows = pathRows
      .map((b) => ({
        path: [b['p1'], b['p2'], b['p3']].flatMap((p) => (p === undefined ? [] : [p.value])),
        count: Number(b['count']!.value),
        kinds: b['kinds']?.value ?? '',
      }))
      .sort((a, b) => a.path.length - b.path.length);
    const byPath = new Map<string, Properties>([['', root]]);
    for (const row of rows) {
      const parent = byPath.get(row.path.slice(0, -1).join(' '));
      if (!parent) continue;
      const id = row.path.at(-1)!;
      const dataTypes = [
        ...new Set(
          row.kinds
            .split(' ')
            .filter((k) => k !== '')
            .map(dataTypeOf),
        ),
      ].sort();
      const node: Properties = { '@id': id, _name: nameOf(id), _count: row.count, _dataTypes: dataTypes };
      (parent._properties ??= []).push(node);
      byPath.set(row.path.join(' '), node);
    }
    for (const node of byPath.values()) node._properties?.sort(byCount);
    return root;
  }

  /**
   * How far the analytics are: the events and items of the project its default graph was built
   * from. The route waits for the store to hold the log as it was when the request came, so every
   * event of the project then is processed.
   */
  async progress(project: ProjectRef): Promise<ProjectStatistics> {
    this.deps.projects.fetch(project);
    return projectStatistics(listedPages(this.deps.items.of(project)));
  }

  private async select(project: ProjectRef, query: string, caller?: string): Promise<Binding[]> {
    const request = { query, defaultGraphs: [], namedGraphs: [] };
    const answer = await this.endpoint.query(project, 'graph', request, () => 'application/sparql-results+json', undefined, caller);
    return (JSON.parse(answer.body) as { results: { bindings: Binding[] } }).results.bindings;
  }
}
