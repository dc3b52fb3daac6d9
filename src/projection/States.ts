import type { ProjectRef } from '../domain/labels.js';
import type { OrgState } from '../domain/orgs/Org.js';
import type { ProjectState } from '../domain/projects/Project.js';
import type { ResourceState } from '../domain/resources/Resource.js';
import { TermDictionary } from '../catalogue/TermDictionary.js';

/** The current state of every item, folded from the log; the write path evaluates commands against it. */
export class States {
  readonly orgs = new Map<string, OrgState>();
  readonly projects = new Map<ProjectRef, ProjectState>();
  readonly resources = new Map<string, ResourceState>();
  /** Schemas share the resource lifecycle, hence its state. */
  readonly schemas = new Map<string, ResourceState>();
  /** Field names and the properties payloads mean by them, per project (for `sort=name`). */
  readonly terms = new TermDictionary();
}
