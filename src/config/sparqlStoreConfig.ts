import type { SparqlServer } from '../store/SparqlHttpClient.js';
import { ConfigError } from '../kernel/ConfigError.js';

const url = (name: string, raw: string): string => {
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got '${raw}'`);
  }
  return raw;
};

/**
 * The external SPARQL 1.1 server of a scaled-out deployment: `SPARQL_ENDPOINT` (queries) turns it
 * on; `SPARQL_UPDATE_ENDPOINT` defaults to it; `SPARQL_GSP_ENDPOINT` (the Graph Store Protocol,
 * e.g. Virtuoso's `/sparql-graph-crud`, Fuseki's `/{dataset}/data`) is then required;
 * `SPARQL_USER` / `SPARQL_PASSWORD` are sent as HTTP Basic credentials; `SPARQL_FAST_WRITES=virtuoso`
 * writes by Virtuoso's unlogged path (SparqlServer's `fastWrites`), `SPARQL_TEXT_INDEX=virtuoso` finds
 * listings' text by Virtuoso's free-text index (`textIndex`), `SPARQL_SEARCH_TEXT_INDEX=virtuoso` the
 * search API's (`searchTextIndex`). File keys: `store.sparql.*`.
 */
export const sparqlStoreConfig = (setting: (envName: string, fileKey: string) => string | undefined): SparqlServer | undefined => {
  const query = setting('SPARQL_ENDPOINT', 'store.sparql.endpoint');
  const update = setting('SPARQL_UPDATE_ENDPOINT', 'store.sparql.update-endpoint');
  const gsp = setting('SPARQL_GSP_ENDPOINT', 'store.sparql.gsp-endpoint');
  const user = setting('SPARQL_USER', 'store.sparql.user');
  const password = setting('SPARQL_PASSWORD', 'store.sparql.password');
  const fast = setting('SPARQL_FAST_WRITES', 'store.sparql.fast-writes');
  if (fast && fast !== 'virtuoso' && fast !== 'off') throw new ConfigError('SPARQL_FAST_WRITES', `expected 'virtuoso' or 'off', got '${fast}'`);
  const textIndex = setting('SPARQL_TEXT_INDEX', 'store.sparql.text-index');
  if (textIndex && textIndex !== 'virtuoso' && textIndex !== 'off')
    throw new ConfigError('SPARQL_TEXT_INDEX', `expected 'virtuoso' or 'off', got '${textIndex}'`);
  const searchTextIndex = setting('SPARQL_SEARCH_TEXT_INDEX', 'store.sparql.search-text-index');
  if (searchTextIndex && searchTextIndex !== 'virtuoso' && searchTextIndex !== 'off')
    throw new ConfigError('SPARQL_SEARCH_TEXT_INDEX', `expected 'virtuoso' or 'off', got '${searchTextIndex}'`);
  if (!query) {
    for (const [name, value] of [
      ['SPARQL_UPDATE_ENDPOINT', update],
      ['SPARQL_GSP_ENDPOINT', gsp],
      ['SPARQL_USER', user],
      ['SPARQL_FAST_WRITES', fast],
      ['SPARQL_TEXT_INDEX', textIndex],
      ['SPARQL_SEARCH_TEXT_INDEX', searchTextIndex],
    ] as const)
      if (value) throw new ConfigError(name, 'is set but SPARQL_ENDPOINT is not: the external store is configured by SPARQL_ENDPOINT');
    return undefined;
  }
  if (!gsp) throw new ConfigError('SPARQL_GSP_ENDPOINT', 'is required with SPARQL_ENDPOINT (the Graph Store Protocol endpoint of the same server)');
  if (password && !user) throw new ConfigError('SPARQL_USER', 'is required with SPARQL_PASSWORD');
  return {
    query: url('SPARQL_ENDPOINT', query),
    update: url('SPARQL_UPDATE_ENDPOINT', update || query),
    gsp: url('SPARQL_GSP_ENDPOINT', gsp),
    ...(user ? { user, password: password ?? '' } : {}),
    ...(fast === 'virtuoso' ? { fastWrites: fast } : {}),
    ...(textIndex === 'virtuoso' ? { textIndex } : {}),
    ...(searchTextIndex === 'virtuoso' ? { searchTextIndex } : {}),
  };
};
