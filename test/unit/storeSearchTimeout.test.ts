import { expect } from 'chai';
import type { RankedQuery } from '../../src/catalogue/textRanking.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import { StoreSearchEngine } from '../../src/search/store/StoreSearchEngine.js';
import { StoreTextMatcher } from '../../src/search/store/StoreTextMatcher.js';
import { SparqlHttpClient, SparqlRequestFailed } from '../../src/store/SparqlHttpClient.js';

/** A store that never answers in time (or refuses): what the client raises, without a server. */
class Failing extends SparqlHttpClient {
  constructor(private readonly failure: Error) {
    super({ query: 'http://127.0.0.1:9/sparql' }, { timeoutMillis: 123, attempts: 1 });
  }
  override async query(): Promise<{ body: string; type: string }> {
    throw this.failure;
  }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('answered'),
    (error: unknown) => error,
  );

/** A `q` listing's first page, as Listings asks the matcher for it. */
const ranked: RankedQuery = {
  words: ['x'],
  filter: { kind: 'resources', projects: ['o/p'], deprecated: false, types: [], typeOperator: 'or' },
  projects: ['o/p'],
  exact: [],
  offset: 0,
  limit: 21,
};

describe('search on the external store past its budget', () => {
  const late = () => new Failing(new SparqlRequestFailed('no answer within 123 ms', undefined, true));

  it('is the typed SearchTimedOut with the budget, for the search API and for q listings', async () => {
    for (const error of [
      await failure(new StoreSearchEngine(late()).search({ query: { match: { name: 'x' } } }, ['o/p'])),
      await failure(new StoreTextMatcher(late()).match(['x'], 'resources', ['o/p'])),
      await failure(new StoreTextMatcher(late()).rank(ranked)),
    ]) {
      expect(error).to.be.instanceOf(Rejection);
      expect((error as Rejection).type).to.equal('SearchTimedOut');
      expect((error as Rejection).fields).to.deep.equal({ millis: 123 });
    }
  });

  it('passes any other failure of the store on as it is', async () => {
    const refused = new SparqlRequestFailed('400 from the store', 400);
    expect(await failure(new StoreSearchEngine(new Failing(refused)).search({ query: { match: { name: 'x' } } }, ['o/p']))).to.equal(refused);
    expect(await failure(new StoreTextMatcher(new Failing(refused)).match(['x'], 'resources', ['o/p']))).to.equal(refused);
    expect(await failure(new StoreTextMatcher(new Failing(refused)).rank(ranked))).to.equal(refused);
  });
});
