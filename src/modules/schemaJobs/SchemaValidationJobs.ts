import type { ResourceState } from '../../domain/resources/Resource.js';
import type { ValidationReport } from '../../domain/resources/SchemaResolver.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { rejections } from '../../domain/rejections.js';
import { Rejection } from '../../kernel/Rejection.js';
import { UNCONSTRAINED } from '../../kernel/vocabulary.js';

/** One resource the job could not validate again, as Delta's `FailedElem` streams it (`…/errors`). */
export interface FailedEntry {
  id: string;
  project: ProjectRef;
  offset: { value: number; '@type': 'At' };
  rev: number;
  reason: { type: 'ValidateSchema'; value: Record<string, unknown> };
}

/** A job's counts, as Delta's projection statistics count its elements. */
export interface JobProgress {
  total: number;
  processed: number;
  discarded: number;
  failed: number;
  /** The latest update instant among the resources the job runs over, and among those it has processed. */
  lastEventInstant?: string;
  lastProcessedInstant?: string;
}

interface Job extends JobProgress {
  errors: FailedEntry[];
  done: Promise<void>;
}

interface Deps {
  /** The project's current resources (data resources: schemas are another kind). */
  resources(project: ProjectRef): Promise<ResourceState[]>;
  validate(project: ProjectRef, id: string): Promise<ValidationReport>;
  /** Hands the event loop back to requests and other work; resolves when the job may go on. */
  yieldLoop(): Promise<void>;
  /** Milliseconds the job may run before it yields. */
  sliceMillis: number;
}

/**
 * Delta 1.11's schema-validation job (`SchemaValidationCoordinator`, `SchemaValidationStream`):
 * every current resource of a project checked again against the latest revision of its schema,
 * deprecated and unconstrained resources skipped (discarded), failures kept with the rejection that
 * a write would have answered. Jobs run one at a time on a runner of their own, in slices of
 * `sliceMillis` between which the event loop is handed back, so requests are not held behind a
 * job. A project's last job is kept in memory, on the process that ran it; starting a job while one
 * runs for the project returns it.
 */
export class SchemaValidationJobs {
  private readonly jobs = new Map<ProjectRef, Job>();
  private queue: Promise<void> = Promise.resolve();
  private readonly starting = new Map<ProjectRef, Promise<void>>();

  constructor(private readonly deps: Deps) {}

  /** Starts a job unless one runs; a start already reading the project's resources is the one that runs. */
  start(project: ProjectRef): Promise<void> {
    const running = this.jobs.get(project);
    if (running && running.processed < running.total) return Promise.resolve();
    const starting = this.starting.get(project) ?? this.begin(project).finally(() => this.starting.delete(project));
    this.starting.set(project, starting);
    return starting;
  }

  private async begin(project: ProjectRef): Promise<void> {
    const resources = (await this.deps.resources(project)).sort((a, b) => (a.contentSeq ?? 0) - (b.contentSeq ?? 0));
    const lastEventInstant = resources.reduce<string | undefined>((last, r) => (last === undefined || r.updatedAt > last ? r.updatedAt : last), undefined);
    const job: Job = {
      total: resources.length,
      processed: 0,
      discarded: 0,
      failed: 0,
      ...(lastEventInstant === undefined ? {} : { lastEventInstant }),
      errors: [],
      done: Promise.resolve(),
    };
    this.jobs.set(project, job);
    job.done = this.queue = this.queue.then(() => this.run(project, job, resources));
  }

  /** The project's last job, undefined when none ran on this process. */
  progress(project: ProjectRef): JobProgress | undefined {
    return this.jobs.get(project);
  }

  errors(project: ProjectRef): readonly FailedEntry[] {
    return this.jobs.get(project)?.errors ?? [];
  }

  /** Resolves once the project's last job is over (tests, shutdown). */
  async settled(project: ProjectRef): Promise<void> {
    await this.jobs.get(project)?.done;
  }

  forget(project: ProjectRef): void {
    this.jobs.delete(project);
  }

  private async run(project: ProjectRef, job: Job, resources: ResourceState[]): Promise<void> {
    let slice = performance.now();
    for (const resource of resources) {
      if (this.jobs.get(project) !== job) return;
      if (performance.now() - slice >= this.deps.sliceMillis) {
        await this.deps.yieldLoop();
        slice = performance.now();
      }
      if (resource.deprecated || resource.schema === UNCONSTRAINED) job.discarded += 1;
      else await this.check(project, job, resource);
      job.processed += 1;
      if (job.lastProcessedInstant === undefined || resource.updatedAt > job.lastProcessedInstant) job.lastProcessedInstant = resource.updatedAt;
    }
  }

  private async check(project: ProjectRef, job: Job, resource: ResourceState): Promise<void> {
    let rejection: Rejection;
    try {
      const report = await this.deps.validate(project, resource.id);
      if (report.conforms) return;
      rejection = rejections.invalidResource(resource.id, resource.schema, report.json);
    } catch (error) {
      // A schema that can no longer be resolved (deleted, deprecated) fails the resource as a write would.
      rejection = error instanceof Rejection ? error : new Rejection('ValidationFailed', String((error as Error)?.message ?? error));
    }
    job.failed += 1;
    job.errors.push({
      id: resource.id,
      project,
      offset: { value: resource.contentSeq, '@type': 'At' },
      rev: resource.rev,
      reason: { type: 'ValidateSchema', value: { '@type': rejection.type, reason: rejection.reason, ...rejection.fields } },
    });
  }
}
