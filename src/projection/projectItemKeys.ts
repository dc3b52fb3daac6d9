import type { ProjectRef } from '../kernel/labels.js';
import type { KindDefinition } from '../domain/KindDefinition.js';
import type { States } from './States.js';

/**
 * The log keys of every item in a project, over every listable kind (each keys its items
 * `{kind}/{org}/{project}/{id}`: resourceKey, schemaKey, storageKey, fileKey) and every kind whose
 * items it contains otherwise (the ACL on its path). Kinds in `except` are left out (their states
 * are not all held here: the caller asks where they are kept).
 */
export const projectItemKeys = (states: States, project: ProjectRef, except: ReadonlySet<string> = new Set()): string[] => {
  const keys: string[] = [];
  for (const definition of states.definitions) {
    if (except.has(definition.kind)) continue;
    for (const state of states.of(definition).values()) {
      const key = containedKey(definition, state, project);
      if (key !== undefined) keys.push(key);
    }
  }
  return keys;
};

/** A listed item's log key: `{kind}/{org}/{project}/{id}`, as every listed kind keys its items. */
export const listedItemKey = (kind: string, project: ProjectRef, id: string): string => `${kind}/${project}/${id}`;

/** The item's log key when it belongs to `project`. */
export const containedKey = (definition: KindDefinition, state: unknown, project: ProjectRef): string | undefined => {
  if (definition.listed) {
    const { project: of, id } = definition.listed(state);
    return of === project ? listedItemKey(definition.kind, project, id) : undefined;
  }
  const contained = definition.contained?.(state);
  return contained?.project === project ? contained.key : undefined;
};
