import { realmEventJson } from '../iamJson.js';
import type { LogEvent } from '../../../events/EventLog.js';
import { authRejections } from '../../../kernel/authRejections.js';
import type { KindDefinition } from '../../../domain/KindDefinition.js';
import type { RealmEvent, RealmState } from './Realm.js';
import { nextRealm } from './Realm.js';
import { keepEarlier } from '../../../domain/earlierRevisions.js';
import { rejections } from '../../../domain/rejections.js';
import type { RealmCommand } from './Realm.js';

const eventOf = (logged: LogEvent) => logged.event as unknown as RealmEvent;

/** Realms: kept by label; their events on the global stream as wire-iam.md has them. */
export const realmDefinition: KindDefinition<RealmState> = {
  kind: 'realms',
  stateKey: (logged) => eventOf(logged).label,
  keyOf: (state) => state.label,
  next: (state, logged) => keepEarlier(state, nextRealm(state, eventOf(logged))),
  render: (logged, look) => realmEventJson(look.addresses.base, eventOf(logged)),
};

/** A lost race in the log: another writer created or changed the realm first. */
export const realmConflict = (state: RealmState | undefined, cmd: RealmCommand, actual: number) =>
  state ? rejections.incorrectRev('rev' in cmd ? cmd.rev : state.rev, actual) : authRejections.realmAlreadyExists(cmd.label);
