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
    const definition = p.states.definitionOf('resources');
    if (!definition) throw new Error("the 'resources' kind is not registered");
    const resources = (project: ProjectRef) =>
      [...(p.states.of(definition) as ReadonlyMap<string, ResourceState>).values()].filter((r) => r.project === project);
    const jobs = new SchemaValidationJobs({
      resources,
      validate: (project, id) => p.revisions.services.resources.validate({ project, id }),
      yieldLoop,
      sliceMillis,
    });
    return {
      services: { jobs },
      routes: (routes, router) => schemaJobRoutes(routes, router, { jobs, projects: p.projects, resourceCount: (ref) => resources(ref).length }),
      projectDeleted: async (ref) => jobs.forget(ref),
    };
  },
});
