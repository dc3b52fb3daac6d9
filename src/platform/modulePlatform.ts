import type { EventLog } from '../events/EventLog.js';
import type { RedisEventLog } from '../events/RedisEventLog.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { AclCheck } from '../kernel/AclCheck.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { Clock } from '../kernel/Clock.js';
import type { Log } from '../kernel/Log.js';
import { itemReader } from '../modules/itemReader.js';
import type { Platform } from '../modules/Platform.js';
import type { States } from '../projection/States.js';
import type { CoreServices } from './coreServices.js';
import type { TripleStore } from './openTripleStore.js';
import type { Projections } from './projections.js';

/** What every capability module is handed once the core is built. */
export const modulePlatform = (p: {
  core: CoreServices;
  projections: Projections;
  store: TripleStore;
  states: States;
  acl: AclCheck;
  permissions: () => readonly string[];
  clock: Clock;
  addresses: Addresses;
  logs: Log;
  log: EventLog;
  jsonld: JsonLdProcessor;
  redis: RedisEventLog | undefined;
}): Omit<Platform, 'storages' | 'files'> => {
  const { core, projections, addresses } = p;
  return {
    turns: core.turns,
    feed: projections.feed,
    sparql: {
      store: p.store.datasets,
      reach: (seq) => (projections.storeRunner ? projections.storeRunner.reach(seq) : Promise.resolve()),
      shared: projections.sharedWriters.length > 0,
    },
    indexPositions: {
      search: () => {
        const text = projections.followers.text;
        return projections.searchOnStore && projections.storeRunner
          ? projections.storeRunner.position
          : text.length
            ? Math.min(...text.map((r) => r.position))
            : projections.feed.position;
      },
      sparql: () => projections.followers.sparql.position,
    },
    permissions: p.permissions,
    ...(core.defaultSearch ? { defaultSearch: core.defaultSearch } : {}),
    states: p.states,
    projectItems: projections.projectItems,
    itemStates: projections.itemStates,
    projects: core.projects,
    lifecycle: core.lifecycle,
    clock: p.clock,
    addresses,
    acl: p.acl,
    listings: core.listings,
    catalogue: core.catalogue,
    log: p.logs,
    ...(p.redis ? { redis: p.redis } : {}),
    revisions: {
      services: { resources: core.resources, schemas: core.schemas },
      states: {
        resources: { ...core.shared.resources, keysOf: (project) => projections.itemStates.keysOf('resources', project) },
        schemas: { ...core.shared.schemas, keysOf: (project) => projections.itemStates.keysOf('schemas', project) },
      },
      log: p.log,
      toNQuads: (expanded) => p.jsonld.toNQuads(expanded),
    },
    items: itemReader({
      resourceStates: core.shared.resources,
      schemaStates: core.shared.schemas,
      resources: core.resources,
      schemas: core.schemas,
      addresses,
    }),
  };
};
