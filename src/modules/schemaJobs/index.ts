import type { ResourceState } from '../../domain/resources/Resource.js';
import type { ProjectRef } from '../../kernel/labels.js';
import type { CapabilityModule } from '../Capability.js';
import type { Platform } from '../Platform.js';
import { schemaJobRoutes } from './schemaJobRoutes.js';
import { SchemaValidationJobs } from './SchemaValidationJobs.js';

/** A macrotask: pending I/O (requests) runs before the job goes on. */
const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Delta 1.11's schema-validation jobs as one capability. No kind and no projection: a job reads the
 * current states and validates as `…/validate` does; its results live on the process that ran it.
 */
export const createSchemaJobsModule = (sliceMillis = 10): CapabilityModule<Platform, { jobs: SchemaValidationJobs }> => ({
  name: 'schemaJobs',
  kinds: [],
  streams: [],
  projections: [],
  statuses: {},
  wire: (p) => {
    // Where the resources' states are kept (shared on Redis): the project's keys, then their states.
    const items = p.revisions.states.resources;
    const resources = async (project: ProjectRef) =>
      (await items.getMany(await items.keysOf(project))).filter((state): state is ResourceState => state !== undefined);
    const jobs = new SchemaValidationJobs({
      resources,
      validate: (project, id) => p.revisions.services.resources.validate({ project, id }),
      yieldLoop,
      sliceMillis,
    });
    return {
      services: { jobs },
      routes: (routes, router) =>
        schemaJobRoutes(routes, router, { jobs, projects: p.projects, resourceCount: async (ref) => (await items.keysOf(ref)).length }),
      projectDeleted: async (ref) => jobs.forget(ref),
    };
  },
});
