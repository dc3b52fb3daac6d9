import { expect } from 'chai';
import { nestingDepth, readUserQuery } from '../../src/sparqlEndpoint/userQuery.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const refusal = (query: string): string | undefined => {
  try {
    readUserQuery(query);
    return undefined;
  } catch (error) {
    return error instanceof Rejection ? `${error.type}: ${error.reason}` : String(error);
  }
};

describe('readUserQuery', () => {
  it('names the form of a read-only query', () => {
    expect(readUserQuery('SELECT * WHERE { ?s ?p ?o }')).to.equal('select');
    expect(readUserQuery('ASK { ?s ?p ?o }')).to.equal('ask');
    expect(readUserQuery('CONSTRUCT WHERE { ?s ?p ?o }')).to.equal('construct');
    expect(readUserQuery('DESCRIBE <urn:x>')).to.equal('describe');
  });

  it('refuses updates and LOAD', () => {
    for (const update of ['INSERT DATA { <urn:a> <urn:b> <urn:c> }', 'LOAD <http://example.org/x>', 'DROP ALL', 'CLEAR GRAPH <urn:g>'])
      expect(refusal(update), update).to.match(/^UnsupportedOperation: SPARQL Update/);
  });

  it('refuses SERVICE at any depth', () => {
    for (const query of [
      'SELECT * WHERE { SERVICE <http://x/sparql> { ?s ?p ?o } }',
      'SELECT * WHERE { { SELECT ?s WHERE { SERVICE SILENT <http://x/sparql> { ?s ?p ?o } } } }',
      'ASK { FILTER NOT EXISTS { SERVICE <http://x/sparql> { ?s ?p ?o } } }',
      'SELECT * WHERE { { ?s ?p ?o } UNION { OPTIONAL { SERVICE ?endpoint { ?s ?p ?o } } } }',
    ])
      expect(refusal(query), query).to.match(/^UnsupportedOperation: SERVICE/);
  });

  it("refuses what does not parse with the parser's message", () => {
    expect(refusal('SELECT ?s WHERE { ?s ?p }')).to.match(/^MalformedQuery: The query is not valid SPARQL 1.1: Parse error/);
  });

  it('measures nesting outside strings, IRIs and comments, and refuses it past the limit before parsing', () => {
    expect(nestingDepth('SELECT * WHERE { ?s ?p ?o FILTER(?o < 3 && (?o > 1)) }')).to.equal(3);
    expect(nestingDepth('SELECT * WHERE { ?s <urn:a((((> "(((\\"((" . ?s ?p """{{{""" } # ((((\n')).to.equal(1);
    expect(refusal(`SELECT * WHERE ${'{'.repeat(101)} ?s ?p ?o ${'}'.repeat(101)}`)).to.match(/^TooDeeplyNested: /);
    expect(refusal(`SELECT * WHERE ${'{'.repeat(100)} ?s ?p ?o ${'}'.repeat(100)}`)).to.equal(undefined);
  });
});
