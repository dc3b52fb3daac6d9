import { expect } from 'chai';
import { isPermission, MINIMUM_PERMISSIONS, P, PERMISSIONS } from '../../src/kernel/permissions.js';

describe('permissions: the minimum set and the syntax of a permission', () => {
  it('holds every permission the service checks, once each, sorted and frozen', () => {
    expect(PERMISSIONS).to.deep.equal(Object.values(P));
    expect(MINIMUM_PERMISSIONS).to.deep.equal([...PERMISSIONS].sort());
    expect(MINIMUM_PERMISSIONS[0]).to.equal('acls/read');
    expect(MINIMUM_PERMISSIONS.at(-1)).to.equal('views/write');
    expect(new Set(MINIMUM_PERMISSIONS).size).to.equal(MINIMUM_PERMISSIONS.length);
    expect(Object.isFrozen(MINIMUM_PERMISSIONS)).to.equal(true);
  });

  it('accepts a letter then up to 31 of letters, digits, _ - : \\ /', () => {
    for (const ok of ['a', 'resources/read', 'Z9_-:\\/', `a${'b'.repeat(31)}`]) expect(isPermission(ok), ok).to.equal(true);
  });

  it('refuses the empty string, a leading non-letter, other characters anywhere and more than 32 characters', () => {
    for (const bad of ['', '1a', '/a', '_a', ' a', 'a ', 'a b', 'a.b', 'a*', `a${'b'.repeat(32)}`, 'a\nb', 'é'])
      expect(isPermission(bad), JSON.stringify(bad)).to.equal(false);
  });
});
