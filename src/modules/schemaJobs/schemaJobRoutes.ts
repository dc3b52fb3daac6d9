import type { Router } from 'express';
import { FETCH, STATES } from '../../http/reads.js';
import { onProject, projectOf } from '../../http/route.js';
import type { Routes } from '../../http/route.js';
import { sendJsonLd as send } from '../../http/routes/itemResponses.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { context } from '../../kernel/vocabulary.js';
import type { JobProgress, SchemaValidationJobs } from './SchemaValidationJobs.js';

interface Deps {
  jobs: SchemaValidationJobs;
  projects: { fetch(ref: ProjectRef): unknown };
  /** How many current resources the project has: what a job would run over, before one has run. */
  resourceCount(project: ProjectRef): Promise<number>;
}

const guard = { permission: 'schemas/run', on: onProject } as const;
const J = '/v1/jobs/schemas/validation/:org/:project';

/** Delta's ViewStatistics of the job's projection (SchemaJobRoutes' `statistics`). */
const statistics = (job: JobProgress) => ({
  '@context': context('statistics'),
  '@type': 'ViewStatistics',
  delayInSeconds: 0,
  discardedEvents: job.discarded,
  evaluatedEvents: job.processed - job.discarded - job.failed,
  failedEvents: job.failed,
  ...(job.lastEventInstant === undefined ? {} : { lastEventDateTime: job.lastEventInstant }),
  ...(job.lastProcessedInstant === undefined ? {} : { lastProcessedEventDateTime: job.lastProcessedInstant }),
  processedEvents: job.processed,
  remainingEvents: job.total - job.processed,
  totalEvents: job.total,
});

/** Delta 1.11's SchemaJobRoutes: start a project's schema-validation job, its progress, its failures (NDJSON). */
export const schemaJobRoutes = (routes: Routes, router: Router, { jobs, projects, resourceCount }: Deps): void => {
  routes.add(router, J, {
    post: {
      guard,
      reads: STATES,
      body: 'none',
      summary: 'Start validating every current resource of the project again against the latest revision of its schema (202; one job a project at a time)',
      handle: async (req, res) => {
        const ref = projectOf(req);
        projects.fetch(ref);
        await jobs.start(ref);
        res.status(202).end();
      },
    },
  });
  routes.add(router, `${J}/statistics`, {
    get: {
      guard,
      reads: FETCH,
      body: 'none',
      summary: "The progress of the project's schema-validation job: processed, discarded (deprecated, unconstrained), failed, remaining",
      handle: async (req, res) => {
        const ref = projectOf(req);
        projects.fetch(ref);
        const total = await resourceCount(ref);
        send(res, statistics(jobs.progress(ref) ?? { total, processed: 0, discarded: 0, failed: 0 }));
      },
    },
  });
  routes.add(router, `${J}/errors`, {
    get: {
      guard,
      reads: FETCH,
      body: 'none',
      summary: "The resources the project's schema-validation job failed, one JSON object a line, with the rejection a write would answer",
      handle: (req, res) => {
        const ref = projectOf(req);
        projects.fetch(ref);
        res
          .status(200)
          .type('application/json')
          .send(
            jobs
              .errors(ref)
              .map((e) => `${JSON.stringify(e)}\n`)
              .join(''),
          );
      },
    },
  });
};
