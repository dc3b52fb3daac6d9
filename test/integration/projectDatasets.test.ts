import { expect } from 'chai';
import { ProjectDatasets } from '../../src/store/ProjectDatasets.js';

const g = (item: string) => `urn:registry:resources/o/p/${item}/rev/1`;
const names = (datasets: ProjectDatasets, query: string) =>
  (
    JSON.parse(datasets.query({ project: 'o/p', query, form: 'select', mediaType: 'application/sparql-results+json' }).body) as {
      results: { bindings: Record<string, { value: string }>[] };
    }
  ).results.bindings
    .map((b) => Object.values(b)[0]!.value)
    .sort();

describe('ProjectDatasets: a revision file read in pieces', () => {
  it('loads each graph in one piece, whatever the cuts, so its blank nodes stay one node and apart from others', () => {
    const file = [
      `_:b0 <urn:name> "a" <${g('a')}> .`,
      `<urn:a> <urn:has> _:b0 <${g('a')}> .`,
      `_:b0 <urn:name> "b" <${g('b')}> .`,
      `<urn:b> <urn:has> _:b0 <${g('b')}> .`,
      '',
    ].join('\n');
    for (let cut = 0; cut < file.length; cut = file.indexOf('\n', cut) + 1 || file.length) {
      const datasets = new ProjectDatasets(1_000);
      datasets.setHeads([
        ['o/p', 'urn:registry:resources/o/p/a', g('a')],
        ['o/p', 'urn:registry:resources/o/p/b', g('b')],
      ]);
      const held = datasets.loadRevisions(file.slice(0, cut), false);
      datasets.loadRevisions(held + file.slice(cut), true);
      expect(names(datasets, 'SELECT ?n WHERE { <urn:a> <urn:has> ?x . ?x <urn:name> ?n }'), `cut at ${cut}`).to.deep.equal(['a']);
      expect(names(datasets, 'SELECT ?n WHERE { GRAPH ?g { <urn:b> <urn:has> ?x . ?x <urn:name> ?n } }'), `cut at ${cut}`).to.deep.equal(['b']);
      if (cut === file.length) break;
    }
  });
});

describe('ProjectDatasets: the default graph as heads change', () => {
  const rev = (item: string, n: number) => `urn:registry:resources/o/p/${item}/rev/${n}`;
  const node = (item: string) => `urn:registry:resources/o/p/${item}`;
  const defaultTriples = (datasets: ProjectDatasets) =>
    (
      JSON.parse(
        datasets.query({ project: 'o/p', query: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }', form: 'select', mediaType: 'application/sparql-results+json' }).body,
      ) as { results: { bindings: Record<string, { value: string }>[] } }
    ).results.bindings
      .map((b) => `${b['s']!.value} ${b['p']!.value} ${b['o']!.value}`)
      .sort();

  it('keeps what the next head or another head holds, drops the rest, with and without blank nodes', () => {
    const datasets = new ProjectDatasets(1_000);
    const put = (item: string, n: number, text: string) => {
      datasets.revision('o/p', rev(item, n), text);
      datasets.current('o/p', node(item), rev(item, n));
    };
    put('a', 1, '<urn:a> <urn:v> "1" .\n<urn:a> <urn:kept> "k" .\n<urn:shared> <urn:by> "both" .\n');
    put('b', 1, '<urn:b> <urn:v> "1" .\n<urn:shared> <urn:by> "both" .\n');
    // a's update drops the shared triple, which b's head still holds, and changes its value.
    put('a', 2, '<urn:a> <urn:v> "2" .\n<urn:a> <urn:kept> "k" .\n');
    expect(defaultTriples(datasets)).to.deep.equal(['urn:a urn:kept k', 'urn:a urn:v 2', 'urn:b urn:v 1', 'urn:shared urn:by both']);
    // b's update drops it too: no head holds it any more.
    put('b', 2, '<urn:b> <urn:v> "2" .\n');
    expect(defaultTriples(datasets)).to.deep.equal(['urn:a urn:kept k', 'urn:a urn:v 2', 'urn:b urn:v 2']);
    // A blank node is a new node in every revision: the former one leaves with its head.
    put('a', 3, '<urn:a> <urn:has> _:x .\n_:x <urn:name> "n" .\n');
    put('a', 4, '<urn:a> <urn:has> _:x .\n_:x <urn:name> "n" .\n');
    const triples = defaultTriples(datasets);
    expect(triples.filter((t) => t.endsWith('urn:name n'))).to.have.length(1);
    expect(triples.filter((t) => t.startsWith('urn:a '))).to.have.length(1);
    // Deprecated (no head): all of a's triples leave.
    datasets.current('o/p', node('a'), undefined);
    expect(defaultTriples(datasets)).to.deep.equal(['urn:b urn:v 2']);
  });
});

describe('ProjectDatasets: a revision sent again', () => {
  const rev = (item: string, n: number) => `urn:registry:resources/o/p/${item}/rev/${n}`;
  const count = (datasets: ProjectDatasets, graph: string) => names(datasets, `SELECT ?o WHERE { GRAPH <${graph}> { ?s ?p ?o } }`).length;

  it('keeps a graph the file already held, and loads the next revisions', () => {
    const datasets = new ProjectDatasets(1_000);
    datasets.loadRevisions(`<urn:a> <urn:v> "1" <${rev('a', 1)}> .\n<urn:a> <urn:v> "2" <${rev('a', 2)}> .\n`, true);
    // The changes the file already held, sent again (with another blank node: a second load would add it).
    datasets.revision('o/p', rev('a', 1), '<urn:a> <urn:w> _:x .\n');
    datasets.revision('o/p', rev('a', 2), '<urn:a> <urn:w> _:x .\n');
    datasets.revision('o/p', rev('a', 3), '<urn:a> <urn:v> "3" .\n');
    expect([count(datasets, rev('a', 1)), count(datasets, rev('a', 2)), count(datasets, rev('a', 3))]).to.deep.equal([1, 1, 1]);
  });

  it('loads the revisions of an item deleted for good and created again under its id', () => {
    const datasets = new ProjectDatasets(1_000);
    datasets.revision('o/p', rev('a', 1), '<urn:a> <urn:v> "old" .\n');
    datasets.drop('o/p', [rev('a', 1)]);
    datasets.revision('o/p', rev('a', 1), '<urn:a> <urn:v> "new" .\n');
    expect(names(datasets, `SELECT ?o WHERE { GRAPH <${rev('a', 1)}> { ?s ?p ?o } }`)).to.deep.equal(['new']);
  });
});
