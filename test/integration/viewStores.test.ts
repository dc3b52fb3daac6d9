import { expect } from 'chai';
import { ProjectDatasets } from '../../src/store/ProjectDatasets.js';

const VIEW = 'urn:registry:view/o/p/v/b1';
const rev = (item: string, n: number) => `urn:registry:resources/o/p/${item}/rev/${n}`;
const node = (item: string) => `urn:registry:resources/o/p/${item}`;
const select = (datasets: ProjectDatasets, query: string, view: string | null = VIEW) =>
  (
    JSON.parse(datasets.query({ project: 'o/p', query, form: 'select', mediaType: 'application/sparql-results+json', ...(view ? { view } : {}) }).body) as {
      results: { bindings: Record<string, { value: string }>[] };
    }
  ).results.bindings
    .map((b) => Object.values(b)[0]!.value)
    .sort();

describe('ProjectDatasets: user-defined SPARQL views, each a store of its own', () => {
  it('copies a member revision loaded after it was named, keeps blank nodes one node, removes a member’s triples but those another member holds', () => {
    const d = new ProjectDatasets(1_000);
    d.revision('o/p', rev('a', 1), '<urn:a> <urn:has> _:x .\n_:x <urn:name> "a" .\n<urn:shared> <urn:label> "s" .\n');
    // b's revision reaches the replica after the view named it (the replica's projection runs behind the view's).
    d.views.set('o/p', VIEW, [
      { item: node('a'), graph: rev('a', 1), metadata: '<urn:a> <https://bluebrain.github.io/nexus/vocabulary/rev> "1" .\n' },
      { item: node('b'), graph: rev('b', 1) },
    ]);
    d.revision('o/p', rev('b', 1), '<urn:b> <urn:name> "b" .\n<urn:shared> <urn:label> "s" .\n');
    d.revision('o/p', rev('c', 1), '<urn:c> <urn:name> "c" .\n');
    expect(select(d, 'SELECT ?n WHERE { ?s <urn:name> ?n }')).to.deep.equal(['a', 'b']);
    expect(select(d, 'SELECT ?n WHERE { <urn:a> <urn:has> ?x . ?x <urn:name> ?n }')).to.deep.equal(['a']);
    expect(select(d, 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal([rev('a', 1), rev('b', 1)]);
    expect(select(d, 'SELECT ?r WHERE { ?s <https://bluebrain.github.io/nexus/vocabulary/rev> ?r }')).to.deep.equal(['1']);
    // The project's own dataset has none of the view's graphs.
    expect(select(d, 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', null)).to.deep.equal([rev('a', 1), rev('b', 1), rev('c', 1)]);
    d.views.set('o/p', VIEW, [{ item: node('a'), graph: undefined }]);
    expect(select(d, 'SELECT ?n WHERE { ?s <urn:name> ?n }')).to.deep.equal(['b']);
    expect(select(d, 'SELECT ?l WHERE { <urn:shared> <urn:label> ?l }')).to.deep.equal(['s']);
    expect(select(d, 'SELECT ?r WHERE { ?s <https://bluebrain.github.io/nexus/vocabulary/rev> ?r }')).to.deep.equal([]);
    d.views.set('o/p', VIEW, [{ item: node('b'), graph: undefined }]);
    expect(select(d, 'SELECT ?s WHERE { ?s ?p ?o }')).to.deep.equal([]);
    d.views.drop(VIEW);
    expect(select(d, 'SELECT ?n WHERE { ?s <urn:name> ?n }')).to.deep.equal([]);
  });

  it('a worker started anew gets the views’ members after the revision file (ViewStores.all)', () => {
    const first = new ProjectDatasets(1_000);
    first.revision('o/p', rev('a', 1), '<urn:a> <urn:name> "a" .\n');
    first.views.set('o/p', VIEW, [{ item: node('a'), graph: rev('a', 1) }]);
    const next = new ProjectDatasets(1_000);
    next.revision('o/p', rev('a', 1), '<urn:a> <urn:name> "a" .\n');
    for (const [project, view, members] of first.views.all()) next.views.set(project, view, members);
    expect(select(next, 'SELECT ?n WHERE { ?s <urn:name> ?n }')).to.deep.equal(['a']);
  });
});
