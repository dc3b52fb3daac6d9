import { realmEventJson } from '../iamJson.js';
import { eventOf } from '../../../domain/eventOf.js';
import { authRejections } from '../../../kernel/authRejections.js';
import type { KindDefinition } from '../../../domain/KindDefinition.js';
import type { RealmEvent, RealmState } from './Realm.js';
import { nextRealm } from './Realm.js';
import { keepEarlier } from '../../../domain/earlierRevisions.js';
import { revConflict } from '../../../domain/revConflict.js';
import type { RealmCommand } from './Realm.js';

/** Realms: kept by label; their events on the global stream as wire-iam.md has them. */
export const realmDefinition: KindDefinition<RealmState> = {
  kind: 'realms',
  stateKey: (logged) => eventOf<RealmEvent>(logged).label,
  keyOf: (state) => state.label,
  next: (state, logged) => keepEarlier(state, nextRealm(state, eventOf<RealmEvent>(logged))),
  render: (logged, look) => realmEventJson(look.addresses.base, eventOf<RealmEvent>(logged)),
};

/** A lost race in the log: another writer created or changed the realm first. */
export const realmConflict = revConflict<RealmState, RealmCommand>((cmd) => authRejections.realmAlreadyExists(cmd.label));
