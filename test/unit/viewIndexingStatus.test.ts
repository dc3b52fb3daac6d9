import { expect } from 'chai';
import type { KindDefinition, Listed } from '../../src/domain/KindDefinition.js';
import type { ProjectService } from '../../src/domain/projects/ProjectService.js';
import { projectRef } from '../../src/kernel/labels.js';
import { ChangeFeed } from '../../src/projection/ChangeFeed.js';
import type { Change } from '../../src/projection/Projection.js';
import { States } from '../../src/projection/States.js';
import { ProjectItemStates } from '../../src/projection/ProjectItemStates.js';
import type { ViewState } from '../../src/modules/views/View.js';
import { DEFAULT_ES_VIEW, DEFAULT_SPARQL_VIEW } from '../../src/modules/views/viewDefinition.js';
import { ViewIndexingStatus, statusOf } from '../../src/modules/views/viewIndexingStatus.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const P = projectRef('org', 'proj');
const EX = 'http://example.com/';

interface Item {
  project: typeof P;
  id: string;
  rev: number;
  types: string[];
  deprecated: boolean;
  tags: Record<string, number>;
}
const listed = (s: Item): Listed => ({
  project: s.project,
  id: s.id,
  rev: s.rev,
  deprecated: s.deprecated,
  types: s.types,
  schema: 'https://bluebrain.github.io/nexus/schemas/unconstrained.json',
  createdAt: '',
  createdBy: '',
  updatedAt: '',
  updatedBy: '',
  links: [],
});
const resources = { kind: 'resources', listed } as unknown as KindDefinition;

const view = (id: string, type: string, resourceTypes: string[] = [], deprecated = false): ViewState =>
  ({
    project: P,
    id,
    deprecated,
    value: { fields: { type, filters: { resourceSchemas: [], resourceTypes, includeMetadata: false, includeDeprecated: false, permission: 'views/query' } } },
  }) as unknown as ViewState;

/**
 * One resource, `alice`, of type Person, at revision 2 written at log position 7: held in process
 * (embedded), or kept where the log keeps the states (shared).
 */
const setting = (positions: { user?: number; search?: number; sparql?: number }, shared = false) => {
  const alice: Item = { project: P, id: `${EX}alice`, rev: 2, types: [`${EX}Person`], deprecated: false, tags: {} };
  const feed = new ChangeFeed();
  const change = (seq: number, key: string, next: Item) => ({ definition: resources, logged: { seq, key }, previous: undefined, next }) as unknown as Change;
  feed.push(change(6, `resources/${P}/${EX}bob`, { ...alice, id: `${EX}bob` }));
  feed.push(change(7, `resources/${P}/${EX}alice`, alice));
  const views = new Map<string, ViewState>([
    ['people', view(`${EX}people`, 'ElasticSearchView', [`${EX}Person`])],
    ['cells', view(`${EX}cells`, 'SparqlView', [`${EX}Cell`])],
    ['agg', view(`${EX}agg`, 'AggregateSparqlView')],
    ['old', view(`${EX}old`, 'ElasticSearchView', [], true)],
    ['es', view(DEFAULT_ES_VIEW, 'ElasticSearchView')],
    ['sparql', view(DEFAULT_SPARQL_VIEW, 'SparqlView')],
  ]);
  const kept = new Map<string, unknown>([[`resources/${P}/${EX}alice`, alice]]);
  const states = new States([resources], new Set(shared ? ['resources'] : []));
  if (!shared) for (const [key, state] of kept) states.of(resources).set(key, state);
  const items = new ProjectItemStates(states, {
    keysOf: async () => (shared ? [...kept.keys()] : []),
    getMany: async <S>(_kind: unknown, keys: readonly string[]) => keys.map((key) => (shared ? kept.get(key) : undefined) as S | undefined),
  });
  return new ViewIndexingStatus({
    items,
    feed,
    projects: { fetch: () => ({ apiMappings: [], base: EX }) } as unknown as ProjectService,
    located: (_project, segment) => views.get(segment)!,
    position: () => positions.user,
    defaults: { search: () => positions.search ?? 0, sparql: () => positions.sparql ?? 0 },
  });
};

const rejection = async (f: () => Promise<unknown>): Promise<string> => {
  try {
    await f();
  } catch (error) {
    if (error instanceof Rejection) return error.type;
    throw error;
  }
  return 'none';
};

describe("a view's indexing status of one item (Delta 1.12's Pending, Completed, Discarded)", () => {
  for (const [layout, shared] of [
    ['held', false],
    ['shared', true],
  ] as const) {
    it(`${layout}: is Discarded when the view does not select the item, whatever its position`, async () => {
      expect(statusOf(false, [{} as Change], () => true)).to.equal('Discarded');
      expect(await setting({ user: 0 }, shared).status(P, 'cells', 'alice')).to.equal('Discarded');
    });

    it(`${layout}: is Pending while a change of the item lies after the view's position, Completed from there`, async () => {
      expect(await setting({ user: 6 }, shared).status(P, 'people', 'alice')).to.equal('Pending');
      expect(await setting({}, shared).status(P, 'people', 'alice')).to.equal('Pending');
      expect(await setting({ user: 7 }, shared).status(P, 'people', 'alice')).to.equal('Completed');
      expect(await setting({ user: 7 }, shared).status(P, 'people', `${EX}alice`)).to.equal('Completed');
    });

    it(`${layout}: follows the search index for the default Elasticsearch view and the SPARQL store for the default SPARQL view`, async () => {
      expect(await setting({ search: 7, sparql: 6 }, shared).status(P, 'es', 'alice')).to.equal('Completed');
      expect(await setting({ search: 7, sparql: 6 }, shared).status(P, 'sparql', 'alice')).to.equal('Pending');
      expect(await setting({ search: 5, sparql: 7 }, shared).status(P, 'es', 'alice')).to.equal('Pending');
      expect(await setting({ search: 5, sparql: 7 }, shared).status(P, 'sparql', 'alice')).to.equal('Completed');
    });

    it(`${layout}: refuses an item the project does not hold, an aggregate view and a deprecated view`, async () => {
      expect(await rejection(() => setting({}, shared).status(P, 'people', 'nobody'))).to.equal('ResourceNotFound');
      // bob's change is in the feed, but no state of bob: permanently deleted.
      expect(await rejection(() => setting({}, shared).status(P, 'people', 'bob'))).to.equal('ResourceNotFound');
      expect(await rejection(() => setting({}, shared).status(P, 'agg', 'alice'))).to.equal('DifferentViewType');
      expect(await rejection(() => setting({}, shared).status(P, 'old', 'alice'))).to.equal('ViewIsDeprecated');
    });
  }
});
