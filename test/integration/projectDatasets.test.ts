import { expect } from 'chai';
import { ProjectDatasets } from '../../src/store/ProjectDatasets.js';
import { QueryFailed } from '../../src/store/ProjectSparqlStore.js';

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

describe('ProjectDatasets: answers', () => {
  const rev = (project: string, item: string, n: number) => `urn:registry:resources/${project}/${item}/rev/${n}`;
  const node = (project: string, item: string) => `urn:registry:resources/${project}/${item}`;
  const RESULTS = 'application/sparql-results+json';
  /** Two items of o/p at their head, one older revision, and an item of o/q. */
  const filled = (max = 1_000) => {
    const datasets = new ProjectDatasets(max);
    const put = (project: string, item: string, n: number, text: string) => {
      datasets.revision(project, rev(project, item, n), text);
      datasets.current(project, node(project, item), rev(project, item, n));
    };
    put('o/p', 'a', 1, '<urn:a> <urn:v> "a1" .\n');
    put('o/p', 'a', 2, '<urn:a> <urn:v> "a2" .\n');
    put('o/p', 'b', 1, '<urn:b> <urn:v> "b1" .\n');
    put('o/q', 'c', 1, '<urn:c> <urn:v> "c1" .\n');
    return datasets;
  };
  const select = (
    datasets: ProjectDatasets,
    query: string,
    more: { project?: string; mediaType?: string; defaultGraphs?: string[]; namedGraphs?: string[] } = {},
  ) => datasets.query({ project: 'o/p', query, form: 'select', mediaType: RESULTS, ...more });
  const values = (datasets: ProjectDatasets, query: string, more: Parameters<typeof select>[2] = {}) =>
    (JSON.parse(select(datasets, query, more).body) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings
      .map((b) => Object.values(b)[0]?.value ?? '')
      .sort();
  const failure = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).to.be.instanceOf(QueryFailed);
      return (error as QueryFailed).reason;
    }
    throw new Error('answered');
  };

  it("answers over the project's heads by default, and its revisions as named graphs, nothing of other projects", () => {
    const datasets = filled();
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }')).to.deep.equal(['a2', 'b1']);
    expect(values(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } }')).to.deep.equal(['a1', 'a2', 'b1']);
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }', { project: 'o/q' })).to.deep.equal(['c1']);
    expect(values(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } }', { project: 'o/none' })).to.deep.equal([]);
  });

  it("takes the protocol's graphs for the dataset, either alone leaving the other part empty", () => {
    const datasets = filled();
    const one = { defaultGraphs: [rev('o/p', 'a', 1)] };
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }', one)).to.deep.equal(['a1']);
    expect(values(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } }', one)).to.deep.equal([]);
    const named = { namedGraphs: [rev('o/p', 'a', 1), rev('o/p', 'b', 1)] };
    expect(values(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } }', named)).to.deep.equal(['a1', 'b1']);
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }', named)).to.deep.equal([]);
  });

  it('answers a SELECT in each results format, and ASK and CONSTRUCT in theirs', () => {
    const datasets = filled();
    const query = 'SELECT ?v WHERE { <urn:b> <urn:v> ?v }';
    expect(JSON.parse(select(datasets, query).body)).to.deep.equal({ head: { vars: ['v'] }, results: { bindings: [{ v: { type: 'literal', value: 'b1' } }] } });
    expect(select(datasets, query, { mediaType: 'text/csv' })).to.deep.equal({ mediaType: 'text/csv', body: 'v\r\nb1\r\n' });
    expect(select(datasets, query, { mediaType: 'text/tab-separated-values' })).to.deep.equal({ mediaType: 'text/tab-separated-values', body: '?v\n"b1"\n' });
    expect(select(datasets, query, { mediaType: 'application/sparql-results+xml' }).body).to.include('<literal>b1</literal>');
    const ask = (q: string, mediaType = RESULTS) => datasets.query({ project: 'o/p', query: q, form: 'ask', mediaType }).body;
    expect(JSON.parse(ask('ASK { <urn:b> ?p ?o }'))).to.deep.equal({ head: {}, boolean: true });
    expect(JSON.parse(ask('ASK { <urn:c> ?p ?o }'))).to.deep.equal({ head: {}, boolean: false });
    expect(ask('ASK { <urn:b> ?p ?o }', 'text/csv')).to.equal('true');
    const construct = (q: string, mediaType = 'application/n-triples') => datasets.query({ project: 'o/p', query: q, form: 'construct', mediaType });
    expect(construct('CONSTRUCT WHERE { <urn:b> ?p ?o }')).to.deep.equal({ mediaType: 'application/n-triples', body: '<urn:b> <urn:v> "b1" .\n' });
    expect(construct('CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o FILTER (?o = "a1") } }').body).to.equal('<urn:a> <urn:v> "a1" .\n');
    expect(construct('CONSTRUCT WHERE { <urn:b> ?p ?o }', 'text/turtle').body).to.include('"b1"');
    expect(datasets.query({ project: 'o/p', query: 'DESCRIBE <urn:b>', form: 'describe', mediaType: 'application/n-triples' }).body).to.equal(
      '<urn:b> <urn:v> "b1" .\n',
    );
  });

  it('refuses an answer of more rows or triples than the cap, and answers one at the cap', () => {
    const datasets = filled(2);
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }')).to.deep.equal(['a2', 'b1']);
    expect(failure(() => select(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } }'))).to.deep.equal({ failure: 'tooLarge', limit: 2 });
    expect(failure(() => select(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } }', { mediaType: 'text/csv' }))).to.deep.equal({
      failure: 'tooLarge',
      limit: 2,
    });
    expect(values(datasets, 'SELECT ?v WHERE { GRAPH ?g { ?s <urn:v> ?v } } LIMIT 2')).to.have.length(2);
    const construct = (q: string) => datasets.query({ project: 'o/p', query: q, form: 'construct', mediaType: 'application/n-triples' });
    expect(construct('CONSTRUCT WHERE { ?s ?p ?o }').body.split('\n').filter(Boolean)).to.have.length(2);
    expect(failure(() => construct('CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }'))).to.deep.equal({ failure: 'tooLarge', limit: 2 });
    // ASK is not capped: its text goes to the engine as written.
    expect(JSON.parse(datasets.query({ project: 'o/p', query: 'ASK { GRAPH ?g { ?s ?p ?o } }', form: 'ask', mediaType: RESULTS }).body).boolean).to.equal(true);
  });

  it('counts rows on the text whatever their values hold: quotes, escapes, brackets and braces', () => {
    const datasets = new ProjectDatasets(2);
    const text = String.raw`<urn:x> <urn:v> "a}]{[\"\\" .` + '\n' + String.raw`<urn:y> <urn:v> "}}]]\\\"" .` + '\n';
    datasets.revision('o/p', rev('o/p', 'x', 1), text);
    datasets.current('o/p', node('o/p', 'x'), rev('o/p', 'x', 1));
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }')).to.have.length(2);
    expect(values(datasets, 'SELECT ?s ?v WHERE { ?s <urn:v> ?v }')).to.have.length(2);
    expect(values(datasets, 'SELECT ?bindings WHERE { ?bindings <urn:v> ?v }')).to.have.length(2);
    expect(failure(() => select(datasets, 'SELECT ?v WHERE { { ?s <urn:v> ?v } UNION { BIND ("[{" AS ?v) } }'))).to.deep.equal({
      failure: 'tooLarge',
      limit: 2,
    });
    expect(values(datasets, 'SELECT ?v WHERE { ?s <urn:none> ?v }')).to.deep.equal([]);
  });

  it('refuses what the engine cannot read as an invalid query, with its message', () => {
    const datasets = filled();
    const reason = failure(() => select(datasets, 'SELECT ?v WHERE { ?s ?p'));
    expect(reason.failure).to.equal('invalid');
    expect((reason as { message: string }).message).to.not.equal('');
    expect(
      failure(() => datasets.query({ project: 'o/none', query: 'CONSTRUCT WHERE', form: 'construct', mediaType: 'application/n-triples' })).failure,
    ).to.equal('invalid');
  });
});

describe('ProjectDatasets: revisions, heads and deletion', () => {
  const rev = (item: string, n: number) => `urn:registry:resources/o/p/${item}/rev/${n}`;
  const node = (item: string) => `urn:registry:resources/o/p/${item}`;
  const all = (datasets: ProjectDatasets, project = 'o/p') =>
    names(datasets, 'SELECT ?o WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }').concat(project === 'o/p' ? [] : []);

  it('holds back the last graph of a piece, and nothing of the final one', () => {
    const datasets = new ProjectDatasets(1_000);
    const a = `<urn:a> <urn:v> "a" <${rev('a', 1)}> .`;
    const b = `<urn:b> <urn:v> "b" <${rev('b', 1)}> .`;
    const held = datasets.loadRevisions(`${a}\n${b}\n${b.replace('"b"', '"b2"')}\n\n`, false);
    expect(held.split('\n').filter(Boolean)).to.deep.equal([b, b.replace('"b"', '"b2"')]);
    expect(held.endsWith('\n')).to.equal(true);
    expect(all(datasets)).to.deep.equal(['a']);
    expect(datasets.loadRevisions(`${b}`, false)).to.equal(`${b}\n`);
    expect(datasets.loadRevisions('', false)).to.equal('');
    expect(datasets.loadRevisions('\n\n', false)).to.equal('');
    expect(datasets.loadRevisions(`${b}\n`, true)).to.equal('');
    expect(all(datasets)).to.deep.equal(['a', 'b']);
  });

  it('loads from the file only the graphs of items, copying the heads into the default graph', () => {
    const datasets = new ProjectDatasets(1_000);
    datasets.setHeads([['o/p', node('b'), rev('b', 2)]]);
    datasets.loadRevisions(
      [
        `<urn:c> <urn:v> "catalogue" <urn:registry:catalogue> .`,
        `<urn:b> <urn:v> "b1" <${rev('b', 1)}> .`,
        `<urn:b> <urn:v> "b2" <${rev('b', 2)}> .`,
        `<urn:b> <urn:w> "b2w" <${rev('b', 2)}> .`,
        '<urn:t> <urn:v> "no graph" .',
        `<urn:x> <urn:v> "x1" <urn:registry:resources/o/p/x/rev/1> .`,
      ].join('\n'),
      true,
    );
    expect(names(datasets, 'SELECT ?o WHERE { ?s ?p ?o }')).to.deep.equal(['b2', 'b2w']);
    expect(names(datasets, 'SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal(['b1', 'b2', 'b2w', 'x1']);
  });

  it('copies a head named at start-up whose revision arrives only later, and ignores an empty revision', () => {
    const datasets = new ProjectDatasets(1_000);
    datasets.setHeads([['o/p', node('a'), rev('a', 1)]]);
    datasets.revision('o/p', rev('a', 1), '');
    datasets.revision('o/p', rev('b', 1), '<urn:b> <urn:v> "b" .\n');
    expect(names(datasets, 'SELECT ?o WHERE { ?s ?p ?o }')).to.deep.equal([]);
    datasets.revision('o/p', rev('a', 1), '<urn:a> <urn:v> "a" .\n');
    expect(names(datasets, 'SELECT ?o WHERE { ?s ?p ?o }')).to.deep.equal(['a']);
  });

  it('copies a head from its graph when it is not the revision just loaded, blank nodes included', () => {
    const datasets = new ProjectDatasets(1_000);
    datasets.revision('o/p', rev('a', 1), '<urn:a> <urn:v> "a1" .\n');
    datasets.revision('o/p', rev('b', 1), '<urn:b> <urn:has> _:n .\n_:n <urn:v> "b1" .\n');
    datasets.current('o/p', node('a'), rev('a', 1));
    datasets.current('o/p', node('b'), rev('b', 1));
    expect(names(datasets, 'SELECT ?o WHERE { <urn:b> <urn:has> ?n . ?n <urn:v> ?o }')).to.deep.equal(['b1']);
    expect(names(datasets, 'SELECT ?o WHERE { ?s <urn:v> ?o }')).to.deep.equal(['a1', 'b1']);
    // The same head again changes nothing; a head of another project is not taken from this one's text.
    datasets.current('o/p', node('a'), rev('a', 1));
    datasets.revision('o/p', rev('c', 1), '<urn:c> <urn:v> "c1" .\n');
    datasets.current('o/q', node('c'), rev('c', 1));
    expect(names(datasets, 'SELECT ?o WHERE { ?s <urn:v> ?o }')).to.deep.equal(['a1', 'b1']);
    const inQ = datasets.query({ project: 'o/q', query: 'ASK { ?s ?p ?o }', form: 'ask', mediaType: 'application/sparql-results+json' });
    expect(JSON.parse(inQ.body)).to.deep.equal({ head: {}, boolean: false });
  });

  it('loads a graph that is not a revision each time it is sent, and a revision once', () => {
    const datasets = new ProjectDatasets(1_000);
    datasets.revision('o/p', 'urn:registry:resources/o/p/a', '<urn:a> <urn:v> "1" .\n');
    datasets.revision('o/p', 'urn:registry:resources/o/p/a', '<urn:a> <urn:v> "2" .\n');
    datasets.revision('o/p', `${rev('b', 1)}x`, '<urn:b> <urn:v> "1" .\n');
    datasets.revision('o/p', `${rev('b', 1)}x`, '<urn:b> <urn:v> "2" .\n');
    expect(names(datasets, 'SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal(['1', '1', '2', '2']);
    datasets.revision('o/p', rev('c', 2), '<urn:c> <urn:v> "2" .\n');
    datasets.revision('o/p', rev('c', 1), '<urn:c> <urn:v> "1" .\n');
    datasets.revision('o/p', rev('d', 1), '<urn:d> <urn:v> "1" .\n');
    expect(names(datasets, 'SELECT ?o WHERE { GRAPH ?g { <urn:c> ?p ?o } }')).to.deep.equal(['2']);
    expect(names(datasets, 'SELECT ?o WHERE { GRAPH ?g { <urn:d> ?p ?o } }')).to.deep.equal(['1']);
  });

  it('drops every graph it is given, in batches, and nothing else; a project without a store has nothing to drop', () => {
    const datasets = new ProjectDatasets(10_000);
    const graphs = Array.from({ length: 1_001 }, (_, i) => rev(`i${i}`, 1));
    for (const g of graphs) datasets.revision('o/p', g, '<urn:s> <urn:v> "x" .\n');
    datasets.revision('o/p', rev('kept', 1), '<urn:s> <urn:v> "kept" .\n');
    datasets.drop('o/p', graphs);
    expect(names(datasets, 'SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal(['kept']);
    datasets.drop('o/none', [rev('kept', 1)]);
    expect(names(datasets, 'SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal(['kept']);
  });
});

describe('ProjectDatasets: projects loaded from the revision file when first queried', () => {
  const rev = (project: string, item: string, n: number) => `urn:registry:resources/${project}/${item}/rev/${n}`;
  const node = (project: string, item: string) => `urn:registry:resources/${project}/${item}`;
  const line = (project: string, item: string, n: number, value: string) => `<urn:${item}> <urn:v> "${value}" <${rev(project, item, n)}> .\n`;

  it('holds no project before its first query, skips its changes, then reads them from the file with the heads given meanwhile', () => {
    let file = line('o/p', 'a', 1, 'a1') + line('o/q', 'c', 1, 'c1');
    let reads = 0;
    const datasets = new ProjectDatasets(1_000, undefined, () => (reads++, [file]));
    datasets.setHeads([
      ['o/p', node('o/p', 'a'), rev('o/p', 'a', 1)],
      ['o/q', node('o/q', 'c'), rev('o/q', 'c', 1)],
    ]);
    expect(datasets.holds('o/p')).to.equal(false);
    // Changes of a project not held: the file holds the revision first (the other side flushes it before posting).
    file += line('o/p', 'a', 2, 'a2');
    datasets.revision('o/p', rev('o/p', 'a', 2), '<urn:a> <urn:v> "a2" .\n');
    datasets.current('o/p', node('o/p', 'a'), rev('o/p', 'a', 2));
    file += line('o/p', 'b', 1, 'b1');
    datasets.revision('o/p', rev('o/p', 'b', 1), '<urn:b> <urn:v> "b1" .\n');
    datasets.current('o/p', node('o/p', 'b'), rev('o/p', 'b', 1));
    // b is deleted for good; this file still holds its graph (the store's rewrite has not reached it).
    datasets.current('o/p', node('o/p', 'b'), undefined);
    datasets.drop('o/p', [rev('o/p', 'b', 1)]);
    expect(reads).to.equal(0);
    expect(names(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }')).to.deep.equal(['a2']);
    expect(names(datasets, 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal([rev('o/p', 'a', 1), rev('o/p', 'a', 2)]);
    expect([reads, datasets.holds('o/p'), datasets.holds('o/q')]).to.deep.equal([1, true, false]);
    // Held now: its changes are applied, a revision the file gave already is not loaded twice.
    datasets.revision('o/p', rev('o/p', 'a', 2), '<urn:a> <urn:v> "a2" .\n');
    datasets.revision('o/p', rev('o/p', 'a', 3), '<urn:a> <urn:v> "a3" .\n');
    datasets.current('o/p', node('o/p', 'a'), rev('o/p', 'a', 3));
    expect(names(datasets, 'SELECT ?v WHERE { ?s <urn:v> ?v }')).to.deep.equal(['a3']);
    expect(names(datasets, `SELECT ?v WHERE { GRAPH <${rev('o/p', 'a', 2)}> { ?s <urn:v> ?v } }`)).to.deep.equal(['a2']);
    expect(reads).to.equal(1);
  });
});
