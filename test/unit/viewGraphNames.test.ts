import { expect } from 'chai';
import type { Listed } from '../../src/domain/KindDefinition.js';
import type { ViewState } from '../../src/modules/views/View.js';
import { sharedGraphOf, sparqlMemberOf } from '../../src/modules/views/viewSelection.js';
import { isViewGraphOf, sharedViewGraphOf, viewGraphPartOf, viewHeadsOf, viewMetadataGraphOf } from '../../src/store/graphNames.js';
import { heldMembers, HELD_METADATA } from '../../src/store/remoteViewGraphs.js';

const view = (fields: Partial<ViewState['value']['fields']>, extra: Partial<ViewState> = {}): ViewState =>
  ({
    id: 'http://x/v',
    project: 'o/p',
    rev: 1,
    deprecated: false,
    tags: {},
    value: {
      fields: {
        type: 'SparqlView',
        filters: { resourceSchemas: [], resourceTypes: [], includeMetadata: false, includeDeprecated: false, permission: 'views/query' },
        ...fields,
      },
      source: {},
      indexingRev: 3,
    },
    ...extra,
  }) as unknown as ViewState;
const listed = (over: Partial<Listed> = {}): Listed =>
  ({ project: 'o/p', id: 'http://x/r', rev: 2, deprecated: false, types: ['http://x/T'], schema: 'http://s', ...over }) as Listed;

describe('SPARQL views on a shared store: graph names and members', () => {
  it('names one graph per view and index revision; none for a deprecated, aggregate or Elasticsearch view', () => {
    const g = sharedGraphOf(view({}))!;
    expect(g).to.equal(sharedViewGraphOf('o/p', 'http://x/v', 3));
    expect(isViewGraphOf(g, 'o/p')).to.equal(true);
    expect(sharedGraphOf(view({}, { deprecated: true }))).to.equal(undefined);
    expect(sharedGraphOf(view({ type: 'ElasticSearchView' }))).to.equal(undefined);
    expect(sharedGraphOf(view({ type: 'AggregateSparqlView' }))).to.equal(undefined);
  });

  it('finds the view graph of its heads and metadata graphs, and of a former per-replica build', () => {
    const g = sharedViewGraphOf('o/p', 'http://x/v', 1);
    expect(viewGraphPartOf(viewHeadsOf(g))).to.equal(g);
    expect(viewGraphPartOf(viewMetadataGraphOf(g, 'urn:registry:resources/o/p/a%2Fb'))).to.equal(g);
    expect(viewGraphPartOf('urn:registry:view/o/p/v/1a2b.3')).to.equal('urn:registry:view/o/p/v/1a2b.3');
    expect(viewGraphPartOf('urn:registry:views')).to.equal(undefined);
    expect(viewGraphPartOf('urn:registry:current/o/p')).to.equal(undefined);
  });

  it('selects as the filters say: types, deprecation, tag, metadata', () => {
    const meta = () => '<s> <p> "m" .\n';
    const m = (v: ViewState, l: Listed | undefined, tags: Record<string, number> = {}) => sparqlMemberOf(v, 'resources', l, tags, meta, 'item');
    expect(m(view({}), listed()).graph).to.equal('urn:registry:resources/o/p/http%3A%2F%2Fx%2Fr/rev/2');
    expect(m(view({}), undefined).graph).to.equal(undefined);
    expect(m(view({}), listed({ project: 'o/q' })).graph).to.equal(undefined);
    expect(m(view({}), listed({ deprecated: true })).graph).to.equal(undefined);
    const typed = view({ filters: { resourceSchemas: [], resourceTypes: ['http://x/U'], includeMetadata: true, includeDeprecated: true, permission: 'p' } });
    expect(m(typed, listed()).graph).to.equal(undefined);
    expect(m(typed, listed({ types: ['http://x/U'], deprecated: true }))).to.deep.include({ metadata: meta() });
    const tagged = view({
      filters: { resourceSchemas: [], resourceTypes: [], resourceTag: 't', includeMetadata: false, includeDeprecated: false, permission: 'p' },
    });
    expect(m(tagged, listed()).graph).to.equal(undefined);
    expect(m(tagged, listed(), { t: 1 }).graph).to.match(/\/rev\/1$/);
  });

  it('reads back what a view graph holds from its heads graph: the revision graph, and whether it has metadata', () => {
    const g = sharedViewGraphOf('o/p', 'v', 1);
    const held = heldMembers(g, [
      { item: 'a', src: 'urn:registry:resources/o/p/a/rev/1' },
      { item: 'a', src: viewMetadataGraphOf(g, 'a') },
      { item: 'b', src: 'urn:registry:resources/o/p/b/rev/4' },
    ]);
    expect(held.get('a')).to.deep.equal({ item: 'a', graph: 'urn:registry:resources/o/p/a/rev/1', metadata: HELD_METADATA });
    expect(held.get('b')).to.deep.equal({ item: 'b', graph: 'urn:registry:resources/o/p/b/rev/4' });
  });
});
