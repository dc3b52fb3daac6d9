import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/Config.js';
import { defaultStreamsPerCaller, FEED_MAX_CHANGES, httpLimits, STATES_CACHE } from '../config/Config.js';
import type { KindDefinition } from '../domain/KindDefinition.js';
import type { EventLog, LogEvent } from '../events/EventLog.js';
import type { ItemStates } from '../events/ItemStates.js';
import type { RedisEventLog } from '../events/RedisEventLog.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { Log } from '../kernel/Log.js';
import type { RenderLookups } from '../kernel/RenderLookups.js';
import { CatalogueIndex } from '../catalogue/CatalogueIndex.js';
import { CatalogueProjection } from '../catalogue/CatalogueProjection.js';
import { ListingCache } from '../catalogue/ListingCache.js';
import { PayloadSortIndexes } from '../catalogue/PayloadSortIndexes.js';
import { TermDictionary } from '../catalogue/TermDictionary.js';
import { TermsFile } from '../catalogue/TermsFile.js';
import { ChangeFeed } from '../projection/ChangeFeed.js';
import { FileProjectionCheckpoints } from '../projection/FileProjectionCheckpoints.js';
import { LogReplay } from '../projection/LogReplay.js';
import type { Projection } from '../projection/Projection.js';
import { everyReplica } from '../projection/everyReplica.js';
import type { EveryReplicaOptions } from '../projection/everyReplica.js';
import { ProjectionRuntime } from '../projection/ProjectionRuntime.js';
import { ProjectItemStates } from '../projection/ProjectItemStates.js';
import { Projector } from '../projection/Projector.js';
import { ReadBarrier } from '../projection/ReadBarrier.js';
import { RedisSnapshots } from '../projection/RedisSnapshots.js';
import type { SharedSnapshot } from '../projection/RedisSnapshots.js';
import { RevisionProjection } from '../projection/RevisionProjection.js';
import type { Snapshot } from '../projection/snapshotText.js';
import { Snapshots } from '../projection/Snapshots.js';
import { SparqlReplicaProjection } from '../projection/SparqlReplicaProjection.js';
import type { States } from '../projection/States.js';
import type { DocumentOf, StateDocument } from '../search/TextProjection.js';
import { TextIndex } from '../search/TextIndex.js';
import { TextProjection } from '../search/TextProjection.js';
import { storeSearch } from '../search/store/storeSearch.js';
import { EventStreams } from '../streams/EventStreams.js';
import type { TripleStore } from './openTripleStore.js';
import { wireStoreWriter } from './wireStoreWriter.js';
import { openItemStates } from './itemStates.js';
import type { StoreWriterDeps } from './wireStoreWriter.js';

export interface ProjectionParts {
  config: Config;
  log: EventLog;
  redis: RedisEventLog | undefined;
  logs: Log;
  store: TripleStore;
  jsonld: JsonLdProcessor;
  states: States;
  addresses: Addresses;
  /** How the event streams look up what a page of events' rendering needs, given where the items' states are kept. */
  lookups: (items: ItemStates) => (events: readonly LogEvent[]) => Promise<RenderLookups>;
  /** Search documents: kinds whose document is their payload, and kinds whose document is read off their state. */
  documents: { payloads: Readonly<Record<string, DocumentOf>>; states: Readonly<Record<string, StateDocument>> };
  /** The capabilities' own projections, each run under its capability's name. */
  extra: readonly { name: string; projection: Projection }[];
  /** The capabilities' parts of what the shared store's writer writes. */
  storeWriters: StoreWriterDeps['writers'];
  /** Told how far the external store is projected, before the log is replayed (the store migration's progress bar). */
  storeProgress?: (progress: () => Promise<{ position: number; head: number }>) => void;
}

/**
 * The read side: the fold of the log into the states (the projector) and every projection with a
 * runner of its own position (catalogue, full text, event streams, the SPARQL replica or the
 * external store's writer, the capabilities' own), restored and following the log once this resolves.
 */
export const startProjections = async (p: ProjectionParts) => {
  const { config, log, logs, states, addresses } = p;
  // [states] The items' latest states the services read: shared through Redis, else the projector's own.
  const statesCache = config.statesCache ?? STATES_CACHE;
  const { itemStates, observe } = openItemStates(p.redis, states, statesCache);
  const projectItems = new ProjectItemStates(states, itemStates);
  const { graphStore, datasets: sparqlDatasets, recorded: storeRecorded } = p.store;
  // readmodels: the catalogue's in-memory indexes are the embedded layout's only; on a shared store
  // every listing is SPARQL over its catalogue graph, and a replica holds nothing per item.
  const catalogueIndex = storeRecorded === undefined ? new CatalogueIndex() : undefined;
  const catalogueMemory = catalogueIndex && { index: catalogueIndex, sorts: new PayloadSortIndexes(graphStore, catalogueIndex) };
  const listingCache = catalogueMemory ? undefined : new ListingCache();
  // A store shared by every replica is written by one of them, the lease holder (below): the fold only derives.
  const revisions = new RevisionProjection(graphStore, p.jsonld, storeRecorded === undefined);
  // Field names and the properties payloads mean by them, per project (`sort=name`): learned by the catalogue.
  const terms = new TermDictionary();
  const termsFile = new TermsFile(join(config.dataDir, 'projection', 'terms.json'));
  const catalogueProjection = new CatalogueProjection(
    graphStore,
    catalogueMemory,
    terms,
    addresses.subjects,
    storeRecorded === undefined,
    {
      file: termsFile,
      log,
      logger: logs,
    },
    listingCache,
  );
  const streams = new EventStreams(log, states, p.lookups(itemStates), (seq) => projector.catchUp(seq), {
    keepAliveMillis: config.sseKeepAliveMillis ?? 20_000,
    perCaller: config.sseStreamsPerCaller ?? defaultStreamsPerCaller(httpLimits(config).maxConnectionsPerClient),
    log: logs,
  });
  // Pruned events must not outlive a permanent deletion in the streams' memory.
  const forgetPruned: Projection = { apply: async (change) => void (change.next === undefined && streams.forget()) };
  // Full text (listings' `q`, the search API): with the external store it runs there, on what its
  // projections write into it, and nothing of it is kept here; embedded, in its own file, indexed
  // again from the log when missing.
  const textPath = join(config.dataDir, 'projection', 'text.sqlite');
  const textFresh = !existsSync(textPath);
  const { payloads, states: stateDocuments } = p.documents;
  const [firstPayloadKind] = Object.keys(payloads);
  const searchOnStore =
    config.textIndex !== false && config.sparqlStore && firstPayloadKind
      ? storeSearch(config.sparqlStore, payloads[firstPayloadKind]!, log, config.searchTimeoutMillis ?? 2_000, {
          payloadKinds: Object.keys(payloads),
          stateDocuments,
        })
      : undefined;
  const textIndex = config.textIndex === false || searchOnStore ? undefined : TextIndex.open(textPath);
  const textProjections: Projection[] = textIndex ? [new TextProjection(textIndex, payloads, log, logs, stateDocuments)] : [];
  // Each projection runs on its own position from the changes the states' fold hands on: one that
  // is slow or failing holds up neither writes nor the others, and reads wait only for those they read.
  // A window of the latest changes: a runner behind it reads its changes again from the log.
  const feed = new ChangeFeed(config.feedMaxChanges ?? FEED_MAX_CHANGES, new LogReplay(log, states, revisions));
  // Durable projections record their positions (the text index in the data directory, beside its
  // file); the catalogue's indexes, the streams' memory and the embedded SPARQL replica live in
  // memory and are rebuilt from the states at every start.
  const checkpoints = new FileProjectionCheckpoints(join(config.dataDir, 'projection', 'checkpoints.json'));
  const runnerOptions = { maxAttempts: 5, backoffMillis: 100 };
  const resumable: { runner: ProjectionRuntime; projection: Projection }[] = [];
  const runner = (name: string, projection: Projection, durable?: Pick<EveryReplicaOptions, 'checkpoints' | 'flush' | 'fresh'>) => {
    const made = new ProjectionRuntime(
      name,
      feed,
      everyReplica((change) => projection.apply(change), { ...runnerOptions, ...durable }),
      logs,
    );
    resumable.push({ runner: made, projection });
    return made;
  };
  const catalogueRunner = runner('catalogue', catalogueProjection);
  const textRunners = [...textProjections.map((projection) => runner('text', projection, { checkpoints, fresh: textFresh, flush: () => textIndex?.commit() }))];
  const extraRunners = p.extra.map(({ name, projection }) => runner(name, projection));
  // The embedded SPARQL replica is this process's own, in memory; the external store is shared:
  // exactly one replica writes its revision graphs and datasets, from the position recorded in it.
  const storeWriter = wireStoreWriter({
    leaseMillis: config.storeLeaseMillis ?? 10_000,
    redis: p.redis,
    recorded: storeRecorded,
    graphStore,
    datasets: sparqlDatasets,
    jsonld: p.jsonld,
    catalogue: catalogueProjection,
    searchOnStore,
    states,
    items: projectItems,
    addresses,
    feed,
    log: logs,
    writers: p.storeWriters,
  });
  const storeRunner = storeWriter?.runner;
  const sharedWriters = storeWriter?.writers ?? [];
  const sparqlRunner = storeRunner ?? runner('sparql', new SparqlReplicaProjection(sparqlDatasets));
  // Every replica tells how far each project's search is on the store (`search/offset`) once the
  // store's position covers a change: it follows the store, so writes never wait for it.
  const searchOffsets =
    searchOnStore &&
    storeRunner &&
    runner('searchOffsets', {
      apply: async (change) => {
        await storeRunner.reach(change.logged.seq);
        searchOnStore.textProjection.note(change);
      },
    });
  const runners = [catalogueRunner, ...textRunners, runner('streams', forgetPruned), ...(storeRunner ? [] : [sparqlRunner]), ...extraRunners];
  // Where the store is shared and replicas hold only the kinds that do not grow, the
  // lease holder shares a snapshot of them in Redis now and then: a replica on an empty data
  // directory starts from it and reads only the log after it. Elsewhere the data directory's own
  // snapshot is the only one (embedded, its revision file is this process's alone).
  const sharedSnapshots = p.redis && states.shared.size > 0 ? new RedisSnapshots(p.redis.connection, p.redis.keyOf('snapshot'), logs) : undefined;
  let restoredShared: SharedSnapshot | undefined;
  let sharing: Promise<void> | undefined;
  /**
   * Shares `picture` once the store and the catalogue's terms reach it. A periodic one asked for while
   * another is being shared is skipped (the next period's will do); the last one, at a clean stop
   * (`last`), is shared after it, or the stop would leave an older one behind.
   */
  const share = (picture: Snapshot, last = false): Promise<void> => {
    if (!sharedSnapshots || (sharing && !last)) return sharing ?? Promise.resolve();
    const current: Promise<void> = (sharing ?? Promise.resolve())
      .then(async () => {
        if (!storeRunner?.status().holder) return;
        // Restorable only once the store holds every change up to it (its restore refuses a snapshot
        // ahead of its position), with the catalogue's terms learned that far (else learned again from
        // the whole log).
        await storeRunner.reach(picture.seq);
        await catalogueRunner.settle(picture.seq);
        if (storeRunner.position < picture.seq || terms.position < picture.seq) return;
        await sharedSnapshots.save({ snapshot: picture, terms: terms.serialize() });
      })
      .catch((error: unknown) => logs.warn(`shared snapshot not written: ${(error as Error).message}`))
      .finally(() => {
        if (sharing === current) sharing = undefined;
      });
    sharing = current;
    return current;
  };
  const projector = new Projector(log, states, revisions, feed, new Snapshots(join(config.dataDir, 'projection', 'snapshot.json'), logs), graphStore, {
    snapshotEvents: config.snapshotEvents,
    snapshotMillis: config.snapshotMillis,
    log: logs,
    ...(observe ? { observe } : {}),
    shared: itemStates,
    sharedCapacity: statesCache,
    ...(sharedSnapshots
      ? {
          fallback: async () => (restoredShared = await sharedSnapshots.load())?.snapshot,
          publish: (picture: Snapshot) => void share(picture),
        }
      : {}),
    durable: async (seq) => {
      await catalogueRunner.settle(seq);
      catalogueProjection.saveTerms();
    },
    restored: async (position, logEnd, restoredStates: ReadonlyMap<KindDefinition, ReadonlyMap<string, unknown>>) => {
      // The catalogue restores its terms from its file, learned at or past the snapshot: the shared one's go with it.
      if (projector.restoredFrom === 'shared snapshot' && restoredShared) termsFile.save(restoredShared.terms);
      restoredShared = undefined;
      feed.clear(position);
      for (const { runner: r, projection } of resumable) await r.start(position, logEnd, async () => projection.restore?.(restoredStates, position));
      await storeRunner?.start(position);
      if (storeRunner) p.storeProgress?.(async () => ({ position: storeRunner.position, head: await log.lastSeq() }));
    },
  });
  const restoredMillis = await projector.restore();
  const following = projector.follow();
  return {
    restoredMillis,
    projector,
    itemStates,
    projectItems,
    /** Whether the log keeps the items' states (each append is handed the state it leads to). */
    statesShared: observe !== undefined,
    feed,
    streams,
    catalogueMemory,
    listingCache,
    terms,
    textIndex,
    searchOnStore,
    sharedWriters,
    storeRunner,
    runners,
    // Replicas answer as one: every request waits until what it reads from reached the log head as of its arrival.
    barrier: new ReadBarrier(() => log.lastSeq(), { waitMillis: config.readBarrierMillis ?? 5_000 }),
    /** What each read waits for, by what its route declares to read. */
    followers: { states: projector, catalogue: catalogueRunner, text: textRunners, sparql: sparqlRunner, ...(storeRunner ? { store: storeRunner } : {}) },
    /** The items' states this process holds: in the fold's maps, and cached of the shared kinds (each bounded where the states are shared). */
    heldStates: () => [
      { name: 'states', entries: states.size },
      { name: 'stateCaches', entries: (observe ? itemStates.held() : 0) + projector.heldShared },
    ],
    /** Every runner's position and health (`/metrics`, the search offsets). */
    statuses: () => [
      { name: 'states', position: projector.position, failures: 0, quarantined: projector.quarantined },
      ...runners.map((r) => r.status()),
      ...(searchOffsets ? [searchOffsets.status()] : []),
      ...(storeRunner ? [storeRunner.status()] : []),
    ],
    /** Stops following and lets the runners finish what they hold; the caller takes the final snapshot once the log is closed. */
    stop: async () => {
      streams.closeAll();
      projector.close();
      await following;
      // The final snapshot needs no runner (they restart from the states), but let them finish what they hold.
      await Promise.race([Promise.all(runners.map((r) => r.settle(projector.position))), new Promise((r) => setTimeout(r, 2_000))]);
      await Promise.all(runners.map((r) => r.recordNow()));
      for (const r of runners) void r.stop();
      catalogueProjection.saveTerms();
      void searchOffsets?.stop();
      for (const writer of sharedWriters) await writer.stop();
      // The holder leaves the replicas a snapshot as of its last event, once the store holds it (bounded: a store that is away holds no stop up).
      await Promise.race([share(projector.picture(false), true), new Promise((r) => setTimeout(r, 5_000).unref())]);
      await storeRunner?.stop();
    },
  };
};

export type Projections = Awaited<ReturnType<typeof startProjections>>;
