import { expect } from 'chai';
import { mayReadOrg, mayReadProject } from '../../src/kernel/ProjectAccess.js';
import type { ProjectAccess } from '../../src/kernel/ProjectAccess.js';

describe('mayReadProject: the one predicate every multi-project read narrows its scope with', () => {
  const limited: ProjectAccess = { mode: 'limited', orgs: ['ab'], projects: ['o/p'] };

  it('admits every project for a caller allowed everywhere', () => {
    expect(mayReadProject({ mode: 'all' }, 'x/y')).to.equal(true);
    expect(mayReadOrg({ mode: 'all' }, 'x')).to.equal(true);
  });

  it('admits a project granted itself, or through its organization, and nothing else', () => {
    expect(mayReadProject(limited, 'o/p')).to.equal(true);
    expect(mayReadProject(limited, 'o/q')).to.equal(false);
    expect(mayReadProject(limited, 'ab/anything')).to.equal(true);
    // An organization's grant is for that organization, not for one whose label it begins.
    expect(mayReadProject(limited, 'abc/p')).to.equal(false);
    expect(mayReadProject(limited, 'a/p')).to.equal(false);
    expect(mayReadOrg(limited, 'ab')).to.equal(true);
    expect(mayReadOrg(limited, 'o')).to.equal(false);
  });
});
