import { permissionsEventJson } from '../iamJson.js';
import { eventOf } from '../../../domain/eventOf.js';
import { PERMISSIONS_KEY } from '../../../kernel/logKeys.js';
import type { KindDefinition } from '../../../domain/KindDefinition.js';
import type { PermissionsEvent, PermissionsState } from './Permissions.js';
import { nextPermissions } from './Permissions.js';
import { keepEarlier } from '../../../domain/earlierRevisions.js';

/** The one set of permissions; before its first change it is `initial` (the minimum, rev 0, never logged). */
export const permissionsDefinition = (initial: PermissionsState, minimum: readonly string[]): KindDefinition<PermissionsState> => ({
  kind: 'permissions',
  stateKey: () => PERMISSIONS_KEY,
  keyOf: () => PERMISSIONS_KEY,
  next: (state, logged) => keepEarlier(state ?? initial, nextPermissions(state ?? initial, eventOf<PermissionsEvent>(logged), minimum)),
  render: (logged, look) => permissionsEventJson(look.addresses.base, eventOf<PermissionsEvent>(logged)),
});
