import { expect } from 'chai';
import { readableProjects } from '../../src/catalogue/Listings.js';
import { rejections } from '../../src/domain/rejections.js';
import { statusOf } from '../../src/http/statusOf.js';

describe('access values in listings', () => {
  const limited = { mode: 'limited', orgs: ['o2'], projects: ['o1/a', 'o1/b', 'o3/c'] } as const;

  it('keeps the scope as it is when the caller may read everything', () => {
    expect(readableProjects({ mode: 'all' }, undefined, undefined)).to.equal(undefined);
    expect(readableProjects({ mode: 'all' }, ['o1/x'], 'o1')).to.deep.equal(['o1/x']);
  });

  it('narrows a global or organization listing to the readable projects, inside the filter', () => {
    expect(readableProjects(limited, undefined, undefined)).to.deep.equal(['o1/a', 'o1/b', 'o3/c']);
    expect(readableProjects(limited, undefined, 'o1')).to.deep.equal(['o1/a', 'o1/b']);
    expect(readableProjects(limited, undefined, 'o4')).to.deep.equal([]);
  });

  it('admits every project of an organization readable as a whole', () => {
    expect(readableProjects(limited, undefined, 'o2')).to.equal(undefined);
    expect(readableProjects(limited, ['o2/new'], 'o2')).to.deep.equal(['o2/new']);
  });

  it('fails closed: a project scope outside the access is empty, not everything', () => {
    expect(readableProjects(limited, ['o5/z'], 'o5')).to.deep.equal([]);
    expect(readableProjects({ mode: 'limited', orgs: [], projects: [] }, undefined, undefined)).to.deep.equal([]);
  });
});

describe('status map', () => {
  it('gives every rejection the service raises a status', () => {
    for (const [name, build] of Object.entries(rejections)) {
      // Array arguments cover the builders that list values.
      const rejection = (build as (...args: unknown[]) => { type: string })(['x'], ['y'], 'z');
      expect(statusOf(rejection.type), name).to.be.a('number');
    }
  });
});
