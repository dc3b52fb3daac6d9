import { expect } from 'chai';
import { ListingCache } from '../../src/catalogue/ListingCache.js';
import type { ListingFilter } from '../../src/catalogue/ListingQuery.js';

const filter = (more: Partial<ListingFilter> = {}): ListingFilter => ({ kind: 'resources', types: [], typeOperator: 'or', ...more });
const page = (total: number) => ({ total, rows: [] });

describe('the listing cache of a shared store', () => {
  it('serves an entry until its scope changes after the position it was asked at, per project, organization and kind', () => {
    const cache = new ListingCache();
    const one = filter({ projects: ['o/a'] });
    const org = filter({ org: 'o' });
    const all = filter();
    const other = filter({ projects: ['p/b'] });
    for (const [key, f] of [
      ['one', one],
      ['org', org],
      ['all', all],
      ['other', other],
    ] as const)
      cache.set(key, 10, page(1));
    cache.changed('resources', 'o/a', 10);
    expect(cache.get('one', one), 'a change the store held already').to.deep.equal(page(1));
    cache.changed('schemas', 'o/a', 11);
    expect(cache.get('one', one), 'another kind').to.deep.equal(page(1));
    cache.changed('resources', 'o/a', 12);
    expect([cache.get('one', one), cache.get('org', org), cache.get('all', all)]).to.deep.equal([undefined, undefined, undefined]);
    expect(cache.get('other', other)).to.deep.equal(page(1));
    cache.set('one', 12, page(2));
    expect(cache.get('one', one)).to.deep.equal(page(2));
  });

  it('keeps at most its capacity, the least recently used dropped first', () => {
    const cache = new ListingCache(2);
    const f = filter();
    cache.set('a', 1, page(1));
    cache.set('b', 1, page(2));
    cache.get('a', f);
    cache.set('c', 1, page(3));
    expect(cache.size).to.equal(2);
    expect([cache.get('a', f), cache.get('b', f), cache.get('c', f)]).to.deep.equal([page(1), undefined, page(3)]);
  });
});
