import type { OrgEvent } from '../domain/orgs/Org.js';
import { nextOrg } from '../domain/orgs/Org.js';
import type { ProjectEvent } from '../domain/projects/Project.js';
import { nextProject } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import { nextResource } from '../domain/resources/Resource.js';
import type { ResourceEvent } from '../domain/resources/ResourceEvent.js';
import { isContentEvent } from '../domain/resources/ResourceEvent.js';
import { resourceEventOf } from '../domain/resources/ItemKind.js';
import { schemaBase } from '../domain/schemas/schemaRef.js';
import type { EventLog, LogEvent } from '../events/EventLog.js';
import type { JsonLdProcessor } from '../jsonld/JsonLdProcessor.js';
import type { CatalogueItem } from '../catalogue/catalogue.js';
import { revisionGraph } from '../store/graphNames.js';
import type { StoreProjection } from '../store/StoreProjection.js';
import type { Snapshot, Snapshots } from './Snapshots.js';
import type { States } from './States.js';
import { resourceKey, schemaKey } from '../kernel/logKeys.js';

export interface ProjectorOptions {
  /** Address prefix of subjects in the catalogue (`{base_url}/v1/`). */
  subjectBase: string;
  /** Take a snapshot once this many events were applied since the last one... */
  snapshotEvents: number;
  /** ...and at least this long after it. */
  snapshotMillis: number;
}

/**
 * Folds the log into the states and the triple store, strictly in log order. Writers call
 * `catchUp(seq)` after appending so they read their own writes; `follow` keeps a process up to
 * date with writes made by others (several processes sharing one Redis log).
 */
export class Projector {
  private applied = 0;
  private chain: Promise<void> = Promise.resolve();
  private sinceSnapshot = 0;
  private lastSnapshot = Date.now();
  private readonly stop = new AbortController();

  constructor(
    private readonly log: EventLog,
    private readonly states: States,
    private readonly store: StoreProjection,
    private readonly jsonld: JsonLdProcessor,
    private readonly snapshots: Snapshots,
    private readonly revisionBytes: { flush(sync?: boolean): number; truncate(length: number): boolean; sync(): Promise<void> },
    private readonly options: ProjectorOptions,
  ) {}

  get position(): number {
    return this.applied;
  }

  /** Restores the last snapshot, loads the persisted revision graphs and replays the rest of the log; returns the time each step took (ms). */
  async restore(): Promise<Record<string, number>> {
    const timings: Record<string, number> = {};
    let mark = performance.now();
    const step = (name: string) => {
      const now = performance.now();
      timings[name] = Math.round(now - mark);
      mark = now;
    };
    let snapshot = this.snapshots.load();
    if (snapshot && !this.revisionBytes.truncate(snapshot.revisionBytes)) {
      // The revision graphs it refers to did not all reach the disk: rebuild everything from the log.
      console.error('snapshot ignored: the revision file is shorter than it records; replaying the whole log');
      snapshot = undefined;
    }
    if (!snapshot) this.revisionBytes.truncate(0);
    if (snapshot) {
      for (const org of snapshot.orgs) this.states.orgs.set(org.label, org);
      for (const project of snapshot.projects) this.states.projects.set(`${project.org}/${project.label}`, project);
      for (const resource of snapshot.resources) this.states.resources.set(resourceKey(resource.project, resource.id), resource);
      for (const schema of snapshot.schemas ?? []) this.states.schemas.set(schemaKey(schema.project, schema.id), schema);
      if (snapshot.terms) this.states.terms.replace(snapshot.terms);
      this.applied = snapshot.seq;
    }
    step('snapshot');
    await this.store.loadRevisions(this.states.resources.size + this.states.schemas.size);
    step('revisions');
    await this.store.loadCatalogue([
      ...[...this.states.resources.values()].map((r) => this.catalogueItem(r)),
      ...[...this.states.schemas.values()].map((r) => this.catalogueItem(r, 'schemas')),
    ]);
    step('catalogue');
    await this.catchUp(await this.log.lastSeq());
    step('replay');
    return timings;
  }

  /** Resolves once every event up to `seq` is applied. */
  catchUp(seq: number): Promise<void> {
    if (seq <= this.applied) return Promise.resolve();
    const run = this.chain.then(() => this.pull(seq));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Applies writes appended by other processes as they arrive, until `close`. */
  async follow(): Promise<void> {
    while (!this.stop.signal.aborted) {
      await this.log.waitForNew(this.applied, this.stop.signal);
      if (this.stop.signal.aborted) break;
      await this.catchUp(await this.log.lastSeq());
    }
  }

  private async pull(until: number): Promise<void> {
    while (this.applied < until) {
      const events = await this.log.read(this.applied, 1000);
      if (!events.length) {
        // What remains up to `until` was pruned.
        this.applied = Math.max(this.applied, Math.min(until, await this.log.lastSeq()));
        break;
      }
      for (const event of events) {
        await this.apply(event);
        this.applied = event.seq;
        this.sinceSnapshot++;
      }
    }
    if (this.sinceSnapshot >= this.options.snapshotEvents && Date.now() - this.lastSnapshot >= this.options.snapshotMillis) {
      void this.snapshots.saveInBackground(this.picture(false), () => this.revisionBytes.sync()).catch((error) => console.error('snapshot failed', error));
      this.sinceSnapshot = 0;
      this.lastSnapshot = Date.now();
    }
  }

  private async apply(event: LogEvent): Promise<void> {
    switch (event.kind) {
      case 'orgs': {
        const e = event.event as unknown as OrgEvent;
        const next = nextOrg(this.states.orgs.get(e.label), e);
        if (next) this.states.orgs.set(e.label, next);
        return;
      }
      case 'projects': {
        const e = event.event as unknown as ProjectEvent;
        const ref = `${e.org}/${e.label}`;
        const next = nextProject(this.states.projects.get(ref), e);
        if (next) this.states.projects.set(ref, next);
        return;
      }
      case 'resources':
        return this.applyResource(event.key, event.event as unknown as ResourceEvent, event.seq);
      case 'schemas':
        return this.applyResource(event.key, resourceEventOf(event.event), event.seq, 'schemas');
      default:
        return;
    }
  }

  /** Resources and schemas share the lifecycle; `kind` picks the state map, graph names and catalogue kind. */
  private async applyResource(key: string, event: ResourceEvent, seq: number, kind: 'resources' | 'schemas' = 'resources'): Promise<void> {
    const states = this.states[kind];
    const previous = states.get(key);
    const next = nextResource(previous, event, seq);
    if (!next) {
      states.delete(key);
      if (previous) {
        await this.store.dropItem(kind, previous.project, previous.id, previous.rev);
        // The revision file was rewritten: the old snapshot no longer matches it.
        this.applied = seq;
        this.snapshot();
      }
      return;
    }
    states.set(key, next);
    if (isContentEvent(event)) {
      this.states.terms.learn(next.project, event.source, event.expanded.find((node) => node['@id'] === next.id) ?? event.expanded[0]);
      await this.store.putRevision(kind, next.project, next.id, next.rev, await this.jsonld.toNQuads(event.expanded));
    } else if (previous && next.rev !== previous.rev) {
      await this.store.copyRevision(kind, next.project, next.id, previous.rev, next.rev);
    }
    await this.store.setCatalogue(this.catalogueItem(next, kind), previous !== undefined);
  }

  catalogueItem(r: ResourceState, kind: 'resources' | 'schemas' = 'resources'): CatalogueItem {
    return {
      kind,
      project: r.project,
      id: r.id,
      rev: r.rev,
      deprecated: r.deprecated,
      types: r.types,
      // The schema itself, not the revision pinned: listings filter by schema.
      schema: schemaBase(r.schema),
      createdAt: r.createdAt,
      createdBy: this.options.subjectBase + r.createdBy,
      updatedAt: r.updatedAt,
      updatedBy: this.options.subjectBase + r.updatedBy,
      head: revisionGraph(kind, r.project, r.id, r.rev),
      links: r.links,
    };
  }

  /** Takes a snapshot now (shutdown; after a permanent deletion rewrote the revision file). */
  snapshot(): void {
    this.snapshots.save(this.picture(true));
    this.sinceSnapshot = 0;
    this.lastSnapshot = Date.now();
  }

  /** The states as of the last applied event, with the revision file flushed up to it. */
  private picture(durable: boolean): Snapshot {
    return {
      version: 1,
      seq: this.applied,
      revisionBytes: this.revisionBytes.flush(durable),
      orgs: [...this.states.orgs.values()],
      projects: [...this.states.projects.values()],
      resources: [...this.states.resources.values()],
      schemas: [...this.states.schemas.values()],
      terms: this.states.terms.toJSON(),
    };
  }

  /** Stops following; the caller takes the final snapshot once writes have drained. */
  close(): void {
    this.stop.abort();
  }
}
