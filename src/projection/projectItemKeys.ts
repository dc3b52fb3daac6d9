import type { ProjectRef } from '../kernel/labels.js';
import type { States } from './States.js';

/**
 * The log keys of every item in a project, over every listable kind: each kind keys its items
 * `{kind}/{org}/{project}/{id}` (resourceKey, schemaKey, storageKey, fileKey).
 */
export const projectItemKeys = (states: States, project: ProjectRef): string[] => {
  const keys: string[] = [];
  for (const definition of states.definitions) {
    if (!definition.listed) continue;
    for (const state of states.of(definition).values()) {
      const { project: of, id } = definition.listed(state);
      if (of === project) keys.push(`${definition.kind}/${project}/${id}`);
    }
  }
  return keys;
};
