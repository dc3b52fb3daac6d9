import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { confinedQuery } from '../../src/store/confinedQuery.js';
import type { ProjectQuery } from '../../src/store/ProjectSparqlStore.js';
import { QueryFailed } from '../../src/store/ProjectSparqlStore.js';

/**
 * The rewriting run on a store that holds every project, as an external store does; its default
 * graph is the union of all graphs, as Virtuoso's is when a query names none: whatever the query
 * reaches outside the project's dataset would show here.
 */
const rev = (project: string, item: string, n: number | string) => `urn:registry:resources/${project}/${item}/rev/${n}`;
const graphs: Record<string, string> = {
  'urn:registry:current/o/p': 'current',
  [rev('o/p', 'x', 1)]: 'rev1',
  [rev('o/p', 'x', 2)]: 'rev2',
  [rev('o/q', 'y', 1)]: 'other',
  'urn:registry:current/o/q': 'otherCurrent',
  [rev('o/px', 'z', 1)]: 'prefixed',
  [`${rev('o/p', 'x', 3)}/more`]: 'deeper',
  [`x${rev('o/p', 'x', 4)}`]: 'beforeScheme',
  [rev('o/p', 'x/y', 5)]: 'nested',
  [rev('o/p', 'x', 'last')]: 'notNumbered',
  'urn:registry:resources/oxp/q/w/rev/1': 'dotted',
};
const store = new oxigraph.Store();
for (const [graph, value] of Object.entries(graphs)) {
  store.add(oxigraph.quad(oxigraph.namedNode('urn:a'), oxigraph.namedNode('urn:v'), oxigraph.literal(value), oxigraph.namedNode(graph)));
  store.add(
    oxigraph.quad(
      oxigraph.namedNode('urn:a'),
      oxigraph.namedNode('urn:n'),
      oxigraph.literal(String(value.length), oxigraph.namedNode('http://www.w3.org/2001/XMLSchema#integer')),
      oxigraph.namedNode(graph),
    ),
  );
}
store.add(oxigraph.quad(oxigraph.namedNode('urn:a'), oxigraph.namedNode('urn:v'), oxigraph.literal('default')));

const MAX = 3;
const confined = (query: string, more: Partial<ProjectQuery> = {}, project = 'o/p') =>
  confinedQuery({ project, query, form: 'select', mediaType: 'application/sparql-results+json', ...more }, MAX);

/** The values of the first variable of each row, sorted. */
const values = (query: string, more: Partial<ProjectQuery> = {}, project = 'o/p'): string[] => {
  const rows = store.query(confined(query, more, project), { use_default_graph_as_union: true }) as Map<string, oxigraph.Term>[];
  return rows.map((row) => [...row.values()][0]?.value ?? '').sort();
};

const refusal = (query: string, more: Partial<ProjectQuery> = {}): string => {
  try {
    confined(query, more);
  } catch (error) {
    expect(error).to.be.instanceOf(QueryFailed);
    const { reason } = error as QueryFailed;
    expect(reason.failure).to.equal('invalid');
    return (reason as { message: string }).message;
  }
  throw new Error(`not refused: ${query}`);
};

describe('confinedQuery: the dataset of a project on a store that holds them all', () => {
  it("reads the default graph as the project's current graph", () => {
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v> ?v }')).to.deep.equal(['current']);
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v> ?v }', {}, 'o/q')).to.deep.equal(['otherCurrent']);
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v>+ ?v }')).to.deep.equal(['current']);
  });

  it("reaches with GRAPH ?g only the project's revision graphs", () => {
    expect(values('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }')).to.deep.equal(['rev1', 'rev2']);
    expect(values('SELECT ?g WHERE { GRAPH ?g { } }')).to.deep.equal([rev('o/p', 'x', 1), rev('o/p', 'x', 2)]);
    expect(values('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }', {}, 'oxp/q')).to.deep.equal(['dotted']);
    expect(values('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }', {}, 'o.p/q')).to.deep.equal([]);
  });

  // An id is one percent-encoded segment (graphNames.ts): `x/y` never names an item; GRAPH ?g refuses it, GRAPH <iri> need not.
  it('reaches a graph named by GRAPH <iri> only when it is a revision graph of the project', () => {
    expect(values(`SELECT ?v WHERE { GRAPH <${rev('o/p', 'x', 1)}> { <urn:a> <urn:v> ?v } }`)).to.deep.equal(['rev1']);
    for (const graph of Object.keys(graphs).filter((g) => g !== rev('o/p', 'x', 1) && g !== rev('o/p', 'x', 2) && g !== rev('o/p', 'x/y', 5)))
      expect(values(`SELECT ?v WHERE { GRAPH <${graph}> { <urn:a> <urn:v> ?v } }`), graph).to.deep.equal([]);
  });

  it('takes FROM and FROM NAMED within the project, and nothing named outside it', () => {
    expect(values(`SELECT ?v FROM <${rev('o/p', 'x', 1)}> WHERE { <urn:a> <urn:v> ?v }`)).to.deep.equal(['rev1']);
    expect(values(`SELECT ?v FROM <${rev('o/q', 'y', 1)}> WHERE { <urn:a> <urn:v> ?v }`)).to.deep.equal([]);
    expect(values(`SELECT ?v FROM <${rev('o/p', 'x', 1)}> WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }`)).to.deep.equal([]);
    expect(values(`SELECT ?v FROM NAMED <${rev('o/p', 'x', 2)}> WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }`)).to.deep.equal(['rev2']);
    expect(values(`SELECT ?v FROM NAMED <${rev('o/p', 'x', 2)}> WHERE { <urn:a> <urn:v> ?v }`)).to.deep.equal([]);
    expect(values(`SELECT ?v FROM NAMED <${rev('o/q', 'y', 1)}> WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }`)).to.deep.equal([]);
    expect(values(`SELECT ?v FROM NAMED <${rev('o/p', 'x', 2)}> WHERE { GRAPH <${rev('o/p', 'x', 1)}> { <urn:a> <urn:v> ?v } }`)).to.deep.equal([]);
  });

  it("takes the protocol's graph parameters over the query's FROM, each alone leaving the other part empty", () => {
    const from = `SELECT ?v FROM <${rev('o/p', 'x', 2)}> FROM NAMED <${rev('o/p', 'x', 2)}> WHERE`;
    expect(values(`${from} { <urn:a> <urn:v> ?v }`, { defaultGraphs: [rev('o/p', 'x', 1)] })).to.deep.equal(['rev1']);
    expect(values(`${from} { GRAPH ?g { <urn:a> <urn:v> ?v } }`, { defaultGraphs: [rev('o/p', 'x', 1)] })).to.deep.equal([]);
    expect(values(`${from} { GRAPH ?g { <urn:a> <urn:v> ?v } }`, { namedGraphs: [rev('o/p', 'x', 1), rev('o/q', 'y', 1)] })).to.deep.equal(['rev1']);
    expect(values(`${from} { <urn:a> <urn:v> ?v }`, { namedGraphs: [rev('o/p', 'x', 1)] })).to.deep.equal([]);
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v> ?v }', { defaultGraphs: [rev('o/q', 'y', 1)] })).to.deep.equal([]);
  });

  it("answers several default graphs over their merge, named by FROM and kept to the project's graphs", () => {
    // Several graphs cannot be one GRAPH <iri>: they go to the server as FROM, which a SPARQL 1.1
    // store honours as its default graph (Virtuoso included: sparqlViewGraphs.test.ts runs on it).
    // This store's union default graph stands for the absence of FROM only, so the merge is
    // evaluated here on the plain dataset.
    const merged = (query: string, more: Partial<ProjectQuery>) =>
      (store.query(confined(query, more)) as Map<string, oxigraph.Term>[]).map((row) => [...row.values()][0]?.value ?? '').sort();
    const both = { defaultGraphs: [rev('o/p', 'x', 1), rev('o/p', 'x', 2)] };
    expect(merged('SELECT ?v WHERE { <urn:a> <urn:v> ?v }', both)).to.deep.equal(['rev1', 'rev2']);
    expect(merged(`SELECT ?v FROM <${rev('o/p', 'x', 1)}> FROM <${rev('o/p', 'x', 2)}> WHERE { <urn:a> <urn:v> ?v }`, {})).to.deep.equal(['rev1', 'rev2']);
    const outside = confined('SELECT ?v WHERE { <urn:a> <urn:v> ?v }', { defaultGraphs: [rev('o/p', 'x', 1), rev('o/q', 'y', 1), 'urn:registry:current/o/q'] });
    expect(outside).to.not.include('o/q');
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v> ?v }', { defaultGraphs: [rev('o/p', 'x', 1), rev('o/q', 'y', 1)] })).to.deep.equal(['rev1']);
    expect(values('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }', both)).to.deep.equal([]);
  });

  it('confines every nested pattern: groups, OPTIONAL, UNION, MINUS, subqueries, EXISTS anywhere', () => {
    const only = (query: string, expected: string[]) => expect(values(query), query).to.deep.equal(expected);
    only('SELECT ?v WHERE { { <urn:a> <urn:v> ?v } }', ['current']);
    only('SELECT ?v WHERE { OPTIONAL { <urn:a> <urn:v> ?v } }', ['current']);
    only('SELECT ?v WHERE { { <urn:a> <urn:v> ?v } UNION { GRAPH ?g { <urn:a> <urn:v> ?v } } }', ['current', 'rev1', 'rev2']);
    only('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } MINUS { <urn:a> <urn:v> ?v } }', ['rev1', 'rev2']);
    only('SELECT ?v WHERE { { SELECT ?v WHERE { <urn:a> <urn:v> ?v } } }', ['current']);
    only(`SELECT ?v WHERE { GRAPH <${rev('o/p', 'x', 1)}> { { SELECT ?v WHERE { <urn:a> <urn:v> ?v } } } }`, ['rev1']);
    only('SELECT ?v WHERE { <urn:a> <urn:v> ?v FILTER NOT EXISTS { <urn:a> <urn:v> "default" } }', ['current']);
    only('SELECT ?v WHERE { <urn:a> <urn:v> ?v FILTER (!EXISTS { <urn:a> <urn:v> "other" }) }', ['current']);
    only('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v FILTER EXISTS { <urn:a> <urn:v> "rev1" } } }', ['rev1']);
    only('SELECT ?e WHERE { BIND (EXISTS { <urn:a> <urn:v> "otherCurrent" } AS ?e) }', ['false']);
    only('SELECT ?e WHERE { { SELECT (EXISTS { <urn:a> <urn:v> "other" } AS ?e) WHERE { } } }', ['false']);
    only('SELECT ?e WHERE { BIND (IF(EXISTS { <urn:a> <urn:v> "current" }, "yes", "no") AS ?e) }', ['yes']);
    only('SELECT ?v WHERE { VALUES ?v { "given" } }', ['given']);
  });

  it('confines the expressions of projections, GROUP BY, HAVING and ORDER BY', () => {
    expect(values('SELECT (EXISTS { <urn:a> <urn:v> "other" } AS ?e) WHERE { }')).to.deep.equal(['false']);
    expect(values('SELECT ?e WHERE { <urn:a> <urn:v> ?v } GROUP BY (EXISTS { <urn:a> <urn:v> "other" } AS ?e)')).to.deep.equal(['false']);
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v> ?v } GROUP BY ?v HAVING (EXISTS { <urn:a> <urn:v> "other" })')).to.deep.equal([]);
    const ordered = confined('SELECT ?v WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } } ORDER BY (EXISTS { <urn:a> <urn:v> "rev2" }) ?v');
    expect(ordered).to.include('urn:registry:current/o/p');
    expect((store.query(ordered, { use_default_graph_as_union: true }) as Map<string, oxigraph.Term>[]).map((r) => r.get('v')!.value)).to.deep.equal([
      'rev1',
      'rev2',
    ]);
  });

  it('counts and sums within the dataset, and allows the XSD casts', () => {
    expect(values('SELECT (COUNT(*) AS ?c) WHERE { GRAPH ?g { <urn:a> <urn:v> ?v } }')).to.deep.equal(['2']);
    expect(values('SELECT (SUM(?n) AS ?s) WHERE { GRAPH ?g { <urn:a> <urn:n> ?n FILTER EXISTS { <urn:a> <urn:v> "rev1" } } }')).to.deep.equal(['4']);
    expect(values('SELECT (SUM(?n) AS ?s) WHERE { GRAPH ?g { <urn:a> <urn:n> ?n FILTER EXISTS { GRAPH ?h { <urn:a> <urn:v> "other" } } } }')).to.deep.equal([
      '0',
    ]);
    expect(values('SELECT (<http://www.w3.org/2001/XMLSchema#integer>("7") AS ?i) WHERE { }')).to.deep.equal(['7']);
  });

  it('refuses SERVICE, functions other than the XSD casts, Virtuoso bif: and sql: IRIs, updates and what does not parse', () => {
    expect(refusal('SELECT * WHERE { SERVICE <urn:s> { ?s ?p ?o } }')).to.equal('SERVICE is not allowed');
    expect(refusal('SELECT * WHERE { GRAPH ?g { SERVICE SILENT <urn:s> { ?s ?p ?o } } }')).to.equal('SERVICE is not allowed');
    expect(refusal('SELECT (<urn:f>(1) AS ?x) WHERE { }')).to.equal('the function <urn:f> is not available');
    expect(refusal('SELECT * WHERE { FILTER (<urn:f>(1)) }')).to.equal('the function <urn:f> is not available');
    expect(refusal('SELECT * WHERE { ?s <bif:contains> "x" }')).to.equal('<bif:contains> is not available');
    expect(refusal('SELECT * WHERE { ?s ?p <SQL:x> }')).to.equal('<SQL:x> is not available');
    expect(values('SELECT ?v WHERE { <urn:a> <urn:v> ?v FILTER (?v != <urn:bifx>) }')).to.deep.equal(['current']);
    expect(refusal('INSERT DATA { <urn:s> <urn:p> <urn:o> }')).to.equal('only queries are answered');
    expect(refusal('SELECT WHERE')).to.include('Parse error');
  });

  it('answers DESCRIBE as the triples of the described resources in the default graph', () => {
    const described = (query: string) =>
      (store.query(confined(query, { form: 'describe' }), { use_default_graph_as_union: true }) as oxigraph.Quad[])
        .map((q) => `${q.subject.value} ${q.object.value}`)
        .sort();
    expect(described('DESCRIBE <urn:a>')).to.deep.equal(['urn:a 7', 'urn:a current']);
    expect(described('DESCRIBE ?s WHERE { ?s <urn:v> "current" }')).to.deep.equal(['urn:a 7', 'urn:a current']);
    expect(described('DESCRIBE <urn:a> <urn:none>')).to.deep.equal(['urn:a 7', 'urn:a current']);
    expect(described('BASE <urn:> DESCRIBE <a>')).to.deep.equal(['urn:a 7', 'urn:a current']);
    expect(refusal('DESCRIBE * WHERE { ?s ?p ?o }')).to.equal('DESCRIBE * is not supported: name the described variables');
  });

  it('asks the server for one row more than the cap at most, and keeps a lower limit', () => {
    const limit = (query: string) => /LIMIT (\d+)/.exec(confined(query))?.[1];
    expect(limit('SELECT * WHERE { ?s ?p ?o }')).to.equal(String(MAX + 1));
    expect(limit(`SELECT * WHERE { ?s ?p ?o } LIMIT ${MAX + 5}`)).to.equal(String(MAX + 1));
    expect(limit(`SELECT * WHERE { ?s ?p ?o } LIMIT ${MAX}`)).to.equal(String(MAX));
    expect(limit('SELECT * WHERE { ?s ?p ?o } LIMIT 1')).to.equal('1');
    expect(limit('ASK { ?s ?p ?o }')).to.equal(undefined);
    expect(limit('CONSTRUCT WHERE { ?s ?p ?o }')).to.equal(undefined);
  });
});
