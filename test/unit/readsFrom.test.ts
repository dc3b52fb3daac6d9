import { expect } from 'chai';
import type { Request } from 'express';
import { readsFrom } from '../../src/http/consistentReads.js';
import type { Follower } from '../../src/projection/ReadBarrier.js';

const follower = (name: string): Follower => ({ name, position: 0, reach: async () => undefined });
const request = (method: string, path: string, query: Record<string, string> = {}) => ({ method, path, query }) as unknown as Request;
const names = (followers: readonly Follower[]) => followers.map((f) => f.name);

describe('what a request reads from', () => {
  const states = follower('states');
  const catalogue = follower('catalogue');
  const text = follower('text');
  const sparql = follower('sparql');

  it('with the embedded store: the SPARQL replica for SPARQL, the text index for search, the states alone for writes', () => {
    const of = readsFrom({ states, catalogue, text: [text], sparql });
    expect(names(of(request('GET', '/v1/views/o/p/graph/sparql')))).to.deep.equal(['states', 'catalogue', 'sparql']);
    expect(names(of(request('GET', '/v1/resources/o/p', { q: 'x' })))).to.deep.equal(['states', 'catalogue', 'text']);
    expect(names(of(request('PUT', '/v1/resources/o/p/_/x')))).to.deep.equal(['states']);
  });

  it('with the external store: SPARQL, search, sorted listings, aggregations and links wait for the store, fetches and writes do not', () => {
    const store = follower('store');
    const of = readsFrom({ states, catalogue, text: [text], sparql: store, store });
    expect(names(of(request('GET', '/v1/views/o/p/graph/sparql')))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(of(request('GET', '/v1/resources/o/p', { sort: 'http://x/n' })))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(of(request('POST', '/v1/search/query')))).to.deep.equal(['states', 'catalogue', 'text', 'store']);
    // The catalogue graph is the holder's: aggregations and links read it there.
    expect(names(of(request('GET', '/v1/resources/o/p', { aggregations: 'true' })))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(of(request('GET', '/v1/resources/o/p/_/x/incoming')))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(of(request('GET', '/v1/files/o/p/x/outgoing')))).to.deep.equal(['states', 'catalogue', 'store']);
    // The default order is this replica's in-memory index.
    expect(names(of(request('GET', '/v1/resources/o/p')))).to.deep.equal(['states', 'catalogue']);
    expect(names(of(request('GET', '/v1/resources/o/p/_/x')))).to.deep.equal(['states', 'catalogue']);
    expect(names(of(request('PUT', '/v1/resources/o/p/_/x')))).to.deep.equal(['states']);
  });
});
