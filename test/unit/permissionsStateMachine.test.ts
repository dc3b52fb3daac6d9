import { expect } from 'chai';
import {
  evaluatePermissions,
  initialPermissions,
  nextPermissions,
  type PermissionsCommand,
  type PermissionsState,
} from '../../src/modules/iam/permissions/Permissions.js';
import { MINIMUM_PERMISSIONS, P } from '../../src/kernel/permissions.js';
import { Rejection } from '../../src/kernel/Rejection.js';

const at = { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };
const min = MINIMUM_PERMISSIONS;
const run = (s: PermissionsState, cmd: PermissionsCommand) => {
  const e = evaluatePermissions(s, cmd, min);
  if (e instanceof Rejection) throw e;
  return nextPermissions(s, e, min);
};
const refusal = (s: PermissionsState, cmd: PermissionsCommand) => (evaluatePermissions(s, cmd, min) as Rejection).type;

describe('Permissions state machine', () => {
  const fresh = initialPermissions(min, at.instant, at.subject);

  it('the minimum holds every permission the service checks, storages defaults included', () => {
    for (const p of [
      'resources/read',
      'resources/write',
      'schemas/write',
      'storages/read',
      'storages/write',
      'files/write',
      'views/query',
      'events/read',
      'projects/delete',
      'organizations/create',
      'acls/write',
      'realms/read',
      'permissions/write',
      'version/read',
      'supervision/read',
    ])
      expect(min).to.include(p);
    expect(Object.values(P).every((p) => min.includes(p))).to.equal(true);
    expect(fresh).to.deep.include({ rev: 0, permissions: [...min] });
  });

  it('replace keeps the minimum; append and subtract carry deltas; delete resets to the minimum', () => {
    let s = run(fresh, { ...at, type: 'Replace', rev: 0, permissions: ['custom/one'] });
    expect(s.rev).to.equal(1);
    expect(s.permissions).to.include.members([...min, 'custom/one']);
    s = run(s, { ...at, type: 'Append', rev: 1, permissions: ['custom/two', 'custom/one'] });
    expect(s.permissions).to.include('custom/two');
    s = run(s, { ...at, type: 'Subtract', rev: 2, permissions: ['custom/one'] });
    expect(s.permissions).to.not.include('custom/one');
    s = run(s, { ...at, type: 'Delete', rev: 3 });
    expect(s).to.deep.include({ rev: 4, permissions: [...min] });
  });

  it('refuses what would break the rules', () => {
    expect(refusal(fresh, { ...at, type: 'Replace', rev: 1, permissions: ['x'] })).to.equal('IncorrectRev');
    expect(refusal(fresh, { ...at, type: 'Replace', rev: 0, permissions: [] })).to.equal('CannotReplaceWithEmptyCollection');
    expect(refusal(fresh, { ...at, type: 'Replace', rev: 0, permissions: ['resources/read'] })).to.equal('CannotReplaceWithEmptyCollection');
    expect(refusal(fresh, { ...at, type: 'Append', rev: 0, permissions: [] })).to.equal('CannotAppendEmptyCollection');
    expect(refusal(fresh, { ...at, type: 'Append', rev: 0, permissions: ['resources/read'] })).to.equal('NothingToBeUpdated');
    expect(refusal(fresh, { ...at, type: 'Append', rev: 0, permissions: ['1bad'] })).to.equal('IllegalPermissionFormat');
    expect(refusal(fresh, { ...at, type: 'Subtract', rev: 0, permissions: [] })).to.equal('CannotSubtractEmptyCollection');
    expect(refusal(fresh, { ...at, type: 'Subtract', rev: 0, permissions: ['resources/read'] })).to.equal('CannotSubtractFromMinimumCollection');
    expect(refusal(fresh, { ...at, type: 'Subtract', rev: 0, permissions: ['never/defined'] })).to.equal('CannotSubtractUndefinedPermissions');
    expect(refusal(fresh, { ...at, type: 'Delete', rev: 0 })).to.equal('CannotDeleteMinimumCollection');
  });
});
