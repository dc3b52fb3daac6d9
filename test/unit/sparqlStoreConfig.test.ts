import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/Config.js';

describe('external store configuration (SPARQL_ENDPOINT...)', () => {
  it('is absent by default: the embedded store', () => {
    expect(loadConfig({}).sparqlStore).to.equal(undefined);
  });

  it('reads the endpoints and credentials from the environment or the config file, the update endpoint defaulting to the query one', () => {
    expect(loadConfig({ SPARQL_ENDPOINT: 'http://v:8890/sparql', SPARQL_GSP_ENDPOINT: 'http://v:8890/sparql-graph-crud' }).sparqlStore).to.deep.equal({
      query: 'http://v:8890/sparql',
      update: 'http://v:8890/sparql',
      gsp: 'http://v:8890/sparql-graph-crud',
    });
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    try {
      const file = join(dir, 'config.json');
      const sparql = { endpoint: 'http://f/ds/query', 'update-endpoint': 'http://f/ds/update', 'gsp-endpoint': 'http://f/ds/data', user: 'u', password: 'p' };
      writeFileSync(file, JSON.stringify({ store: { sparql } }));
      expect(loadConfig({ CONFIG_FILE: file }).sparqlStore).to.deep.equal({
        query: 'http://f/ds/query',
        update: 'http://f/ds/update',
        gsp: 'http://f/ds/data',
        user: 'u',
        password: 'p',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops the start-up naming the setting that is missing or wrong', () => {
    const failure = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(failure({ SPARQL_ENDPOINT: 'http://v/sparql' })).to.match(/SPARQL_GSP_ENDPOINT/);
    expect(failure({ SPARQL_ENDPOINT: 'ftp://v/sparql', SPARQL_GSP_ENDPOINT: 'http://v/gsp' })).to.match(/SPARQL_ENDPOINT/);
    expect(failure({ SPARQL_GSP_ENDPOINT: 'http://v/gsp' })).to.match(/SPARQL_GSP_ENDPOINT/);
    expect(failure({ SPARQL_ENDPOINT: 'http://v/sparql', SPARQL_GSP_ENDPOINT: 'http://v/gsp', SPARQL_PASSWORD: 'p' })).to.match(/SPARQL_USER/);
    expect(failure({ SPARQL_ENDPOINT: 'http://v/sparql', SPARQL_GSP_ENDPOINT: 'http://v/gsp', SPARQL_FAST_WRITES: 'fuseki' })).to.match(/SPARQL_FAST_WRITES/);
    expect(failure({ SPARQL_FAST_WRITES: 'virtuoso' })).to.match(/SPARQL_FAST_WRITES/);
    expect(failure({ SPARQL_ENDPOINT: 'http://v/sparql', SPARQL_GSP_ENDPOINT: 'http://v/gsp', SPARQL_SEARCH_TEXT_INDEX: 'lucene' })).to.match(
      /SPARQL_SEARCH_TEXT_INDEX/,
    );
    expect(failure({ SPARQL_SEARCH_TEXT_INDEX: 'virtuoso' })).to.match(/SPARQL_SEARCH_TEXT_INDEX/);
  });

  it("indexes listings' texts and the search API's documents by Virtuoso's free-text index each by its own setting", () => {
    const env = { SPARQL_ENDPOINT: 'http://v/sparql', SPARQL_GSP_ENDPOINT: 'http://v/gsp' };
    const listings = loadConfig({ ...env, SPARQL_TEXT_INDEX: 'virtuoso' }).sparqlStore;
    expect([listings?.textIndex, listings?.searchTextIndex]).to.deep.equal(['virtuoso', undefined]);
    const search = loadConfig({ ...env, SPARQL_SEARCH_TEXT_INDEX: 'virtuoso' }).sparqlStore;
    expect([search?.textIndex, search?.searchTextIndex]).to.deep.equal([undefined, 'virtuoso']);
  });

  it("writes by Virtuoso's unlogged path when SPARQL_FAST_WRITES=virtuoso", () => {
    const env = { SPARQL_ENDPOINT: 'http://v/sparql', SPARQL_GSP_ENDPOINT: 'http://v/gsp' };
    expect(loadConfig({ ...env, SPARQL_FAST_WRITES: 'virtuoso' }).sparqlStore?.fastWrites).to.equal('virtuoso');
    expect(loadConfig({ ...env, SPARQL_FAST_WRITES: 'off' }).sparqlStore?.fastWrites).to.equal(undefined);
  });
});
