import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../config/Config.js';
import { CatalogueQueries } from '../catalogue/CatalogueQueries.js';
import { Listings } from '../catalogue/Listings.js';
import { ResourceQueries } from '../catalogue/ResourceQueries.js';
import { listingScopes } from '../catalogue/scopes.js';
import { noTextIndex } from '../catalogue/textRanking.js';
import { EventWriter } from '../domain/EventWriter.js';
import type { Indexing } from '../domain/EventWriter.js';
import { Lifecycle } from '../domain/Lifecycle.js';
import { OrgService } from '../domain/orgs/OrgService.js';
import { ProjectService } from '../domain/projects/ProjectService.js';
import { ProjectContexts } from '../domain/resources/ProjectContexts.js';
import { ResourceService } from '../domain/resources/ResourceService.js';
import type { ResourceStates } from '../domain/resources/resourcePorts.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import { RevisionReader } from '../domain/resources/RevisionReader.js';
import type { EventLog, Kind } from '../events/EventLog.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { Addresses } from '../kernel/Addresses.js';
import type { Clock } from '../kernel/Clock.js';
import type { ProjectRef } from '../kernel/labels.js';
import type { Log } from '../kernel/Log.js';
import { DEFAULT_STORAGE } from '../kernel/vocabulary.js';
import { projectItemKeys } from '../projection/projectItemKeys.js';
import { storableRevision } from '../projection/storableRevision.js';
import type { States } from '../projection/States.js';
import type { Resolution } from '../resolvers/Resolution.js';
import { ResolvingSchemas } from '../resolvers/ResolvingSchemas.js';
import { resolveElsewhere } from '../resolvers/resolveElsewhere.js';
import { EmbeddedTextMatcher } from '../search/EmbeddedTextMatcher.js';
import { SearchedDocuments } from '../search/SearchedDocuments.js';
import { inProcessEngine, SearchService } from '../search/SearchService.js';
import { pinnedRevisionTriples } from '../shacl/pinnedRevisionTriples.js';
import { SchemaImports } from '../shacl/SchemaImports.js';
import { SchemaPayloads } from '../shacl/SchemaPayloads.js';
import { ShaclSchemas } from '../shacl/ShaclSchemas.js';
import { CpuTurns } from '../workers/CpuTurns.js';
import type { Executor } from '../workers/Executor.js';
import type { CoreKinds } from './coreKinds.js';
import { SHARED_KINDS } from './coreKinds.js';
import type { CpuOperations } from './cpuOperations.js';
import type { TripleStore } from './openTripleStore.js';
import type { Projections } from './projections.js';
import type { WiredCapability } from '../modules/Capability.js';

type ItemKindParts = CoreKinds['resources'];

export interface CoreParts {
  config: Config;
  clock: Clock;
  addresses: Addresses;
  logs: Log;
  log: EventLog;
  states: States;
  store: TripleStore;
  jsonld: JsonLdProcessor;
  executor: Executor<CpuOperations>;
  projections: Projections;
  kinds: CoreKinds;
  /** Late-bound: the resolvers are wired with the capabilities, after the services that resolve through them. */
  resolution: () => Resolution;
  /** The permissions defined now (`/v1/permissions`). */
  permissions: () => readonly string[];
  /** The capabilities, late-bound (they are wired after the core): what they do when a project is created or deleted. */
  capabilities: () => readonly Pick<WiredCapability<unknown>, 'projectCreated' | 'projectDeleting' | 'projectDeleted'>[];
}

/** The core's services: the log's writer, organizations, projects, resources, schemas, listings and search. */
export const coreServices = async (p: CoreParts) => {
  const { config, clock, addresses, log, states, jsonld, executor, projections } = p;
  const { graphStore } = p.store;
  const requestIndexing = new AsyncLocalStorage<Indexing>();
  const writer = new EventWriter(log, {
    states: (seq) => projections.projector.catchUp(seq),
    projections: async (seq) => void (await Promise.all(projections.runners.map((r) => r.settle(seq)))),
    latest: async () => projections.projector.catchUp(await log.lastSeq()),
    indexing: () => requestIndexing.getStore() ?? 'sync',
  });
  const { itemStates } = projections;
  const lifecycle = new Lifecycle(
    writer,
    async (draft) => {
      const definition = states.definitionOf(draft.kind);
      if (!definition) return undefined;
      const key = definition.stateKey({ ...draft, seq: 0 });
      // Where the services read the kind's states: those that grow with the data through the port (shared on Redis).
      return SHARED_KINDS.has(draft.kind) ? itemStates.get(draft.kind, key) : states.of(definition).get(key);
    },
    // A log that keeps the states (Redis) is handed the state each event leads to.
    projections.statesShared ? (draft, previous, seq) => states.definitionOf(draft.kind)?.next(previous, { ...draft, seq }) : undefined,
  );
  const kinds = {
    orgs: states.of(p.kinds.orgs),
    projects: states.of(p.kinds.projects),
  };
  const orgs = new OrgService(kinds.orgs, lifecycle, clock);
  const capacity = () => graphStore.ensureRoom();
  // What a capability keeps per project follows the project: a default storage, a default resolver; files' bytes.
  const projects = new ProjectService(
    kinds.projects,
    orgs,
    lifecycle,
    clock,
    addresses,
    async (ref, caller) => {
      for (const m of p.capabilities()) await m.projectCreated?.(ref, caller);
    },
    {
      // Resources, schemas and files grow with the data: their keys come from where their states are kept.
      keys: async (ref) => [
        ...projectItemKeys(states, ref, SHARED_KINDS),
        ...(await Promise.all([...SHARED_KINDS].map((kind) => itemStates.keysOf(kind as Kind, ref)))).flat(),
      ],
      bytes: async (ref) => {
        const removals = await Promise.all(p.capabilities().flatMap((m) => (m.projectDeleting ? [m.projectDeleting(ref)] : [])));
        return async () => void (await Promise.all(removals.map((remove) => remove())));
      },
      // The store's writer reads the items' states at the deletion to remove their graphs: pruned
      // only once it has (bounded: a store away must not hold the deletion; what it missed is logged).
      folded: async (seq) => {
        const runner = projections.storeRunner;
        if (!runner) return;
        const bound = config.readBarrierMillis ?? 5_000;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), bound)));
        const reached = await Promise.race([runner.reach(seq).then(() => true), late]);
        clearTimeout(timer);
        if (!reached)
          p.logs.warn(`project deletion at event ${seq}: the store's writer did not reach it within ${bound} ms; items it had not read stay in the store`, {
            seq,
          });
      },
      prune: (key, seq) => writer.prune(key, seq),
      forget: async (ref) => {
        for (const m of p.capabilities()) await m.projectDeleted?.(ref);
      },
    },
  );
  const reader = new RevisionReader(log);
  // Resources and schemas, which grow with the data, are read where the states are kept (shared on Redis).
  const latest = (kind: 'resources' | 'schemas'): ResourceStates => ({
    get: (key) => itemStates.get<ResourceState>(kind, key),
    getMany: (keys) => itemStates.getMany<ResourceState>(kind, keys),
  });
  const shared = { resources: latest('resources'), schemas: latest('schemas') };
  // Schemas and their imports are read back from the pinned revisions in the log.
  const revisionTriples = pinnedRevisionTriples(shared, reader, jsonld);
  // Schemas, imports and contexts of other projects are found through the project's resolvers.
  const elsewhere = resolveElsewhere(p.resolution);
  const imports = new SchemaImports(shared.schemas, shared.resources, revisionTriples, elsewhere);
  const contexts = new ProjectContexts(shared.resources, reader, elsewhere);
  const storable = storableRevision(jsonld, graphStore);
  // An id is unique in a project across kinds; the default storage's id is reserved.
  const taken = (others: ItemKindParts) => async (ref: string, id: string) =>
    id === DEFAULT_STORAGE || (await shared[others.definition.kind as 'resources' | 'schemas'].get(others.kind.key(ref, id))) !== undefined;
  const itemService = (own: ItemKindParts, other: ItemKindParts, validation: ConstructorParameters<typeof ResourceService>[2]) =>
    new ResourceService(
      shared[own.definition.kind as 'resources' | 'schemas'],
      projects,
      validation,
      jsonld,
      lifecycle,
      writer,
      reader,
      clock,
      capacity,
      { storable, takenElsewhere: taken(other) },
      own.definition,
      own.kind,
      contexts,
    );
  const { resources: resourceParts, schemas: schemaParts } = p.kinds;
  const shacl = new ResolvingSchemas(new ShaclSchemas(shared.schemas, reader, revisionTriples, imports, executor), p.resolution);
  const resources = itemService(resourceParts, schemaParts, shacl);
  const schemas = itemService(schemaParts, resourceParts, new SchemaPayloads(imports, jsonld, executor));
  const { textIndex, searchOnStore } = projections;
  // readmodels: in-memory indexes on the embedded layout only; on the external store, SPARQL.
  const { catalogueMemory, listingCache, storeRunner } = projections;
  const storeListings = listingCache && storeRunner && { listings: listingCache, storePosition: () => storeRunner.position };
  const catalogue = new CatalogueQueries(graphStore, catalogueMemory, () => kinds.projects.keys(), storeListings);
  const textMatcher = textIndex && catalogueMemory ? new EmbeddedTextMatcher(textIndex, catalogueMemory.index) : (searchOnStore?.matcher ?? noTextIndex);
  const listings = new Listings(catalogue, listingScopes(orgs, projects, addresses, projections.terms), textMatcher);
  const queries = new ResourceQueries(shared.resources, listings, catalogue, resources);
  const schemaQueries = new ResourceQueries(shared.schemas, listings, catalogue, schemas, schemaParts.kind);
  // One set of turns for every search, the views' included: they take their slices in turn.
  const turns = new CpuTurns();
  const searchTimeout = config.searchTimeoutMillis ?? 2_000;
  const searchEngine = searchOnStore?.engine ?? (textIndex && inProcessEngine(new SearchedDocuments(textIndex), searchTimeout));
  const searchPosition = (project: ProjectRef) => (searchOnStore ? searchOnStore.textProjection.positionOf(project) : textIndex?.positionOf(project));
  const search =
    searchEngine &&
    new SearchService(searchEngine, searchPosition, () => kinds.projects.keys(), {
      suites: config.searchSuites ?? {},
      timeoutMillis: searchTimeout,
      turns,
      fetched: async (project, id) => {
        const { state, compacted } = await resources.fetchCompacted({ project, id }, {});
        return resourceParts.document(state, compacted);
      },
      ...(config.searchFields !== undefined ? { fieldsFile: config.searchFields } : {}),
    });
  const defaultViewDocuments = textIndex && new SearchedDocuments(textIndex);
  const projectDocuments = searchOnStore
    ? (project: ProjectRef) => searchOnStore.engine.documents(project)
    : defaultViewDocuments && (async (project: ProjectRef) => defaultViewDocuments.of([project]).docs);
  const defaultSearch =
    search && projectDocuments
      ? {
          query: (project: ProjectRef, body: unknown) => search.query(body, { mode: 'limited' as const, orgs: [], projects: [project] }),
          documents: projectDocuments,
        }
      : undefined;
  return {
    requestIndexing,
    writer,
    lifecycle,
    kinds,
    /** The latest states of resources and schemas, wherever they are kept. */
    shared,
    orgs,
    projects,
    resources,
    schemas,
    queries,
    schemaQueries,
    catalogue,
    listings,
    turns,
    search,
    defaultSearch,
  };
};

export type CoreServices = Awaited<ReturnType<typeof coreServices>>;
