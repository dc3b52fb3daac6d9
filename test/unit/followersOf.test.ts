import { expect } from 'chai';
import type { Request } from 'express';
import { followersOf } from '../../src/http/consistentReads.js';
import { LISTING, readsOf, SEARCH, SPARQL, STATES } from '../../src/http/reads.js';
import type { Follower } from '../../src/projection/ReadBarrier.js';

const follower = (name: string): Follower => ({ name, position: 0, reach: async () => undefined });
const request = (query: Record<string, string> = {}) => ({ query }) as unknown as Request;
const names = (followers: readonly Follower[]) => followers.map((f) => f.name);

describe('the followers behind what a route declares to read', () => {
  const states = follower('states');
  const catalogue = follower('catalogue');
  const text = follower('text');
  const sparql = follower('sparql');

  it('with the embedded store: the SPARQL replica for SPARQL, the text index for search, no store, the states alone for writes', () => {
    const models = { states, catalogue, text: [text], sparql };
    expect(names(followersOf(models, readsOf(SPARQL, request())))).to.deep.equal(['states', 'catalogue', 'sparql']);
    expect(names(followersOf(models, readsOf(LISTING, request({ q: 'x' }))))).to.deep.equal(['states', 'catalogue', 'text']);
    expect(names(followersOf(models, readsOf(STATES, request())))).to.deep.equal(['states']);
  });

  it('with the external store: the store once, as the SPARQL replica too; every listing waits for it (replicas keep no catalogue index there)', () => {
    const store = follower('store');
    const models = { states, catalogue, text: [text], sparql: store, store };
    expect(names(followersOf(models, readsOf(SPARQL, request())))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(followersOf(models, readsOf(SEARCH, request())))).to.deep.equal(['states', 'catalogue', 'text', 'store']);
    expect(names(followersOf(models, readsOf(LISTING, request({ sort: 'http://x/n' }))))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(followersOf(models, readsOf(LISTING, request({ aggregations: 'true' }))))).to.deep.equal(['states', 'catalogue', 'store']);
    expect(names(followersOf(models, readsOf(LISTING, request({ q: 'x', sort: 'y' }))))).to.deep.equal(['states', 'catalogue', 'text', 'store']);
    expect(names(followersOf(models, readsOf(LISTING, request())))).to.deep.equal(['states', 'catalogue', 'store']);
  });

  it('several text indexes are all waited for', () => {
    const other = follower('text2');
    expect(names(followersOf({ states, catalogue, text: [text, other], sparql }, ['text']))).to.deep.equal(['text', 'text2']);
  });
});
