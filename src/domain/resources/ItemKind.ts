import type { Kind } from '../../events/EventLog.js';
import type { Expansion } from '../../jsonld/JsonLdProcessor.js';
import { resourceKey } from '../../kernel/logKeys.js';
import type { ProjectRef } from '../../kernel/labels.js';
import { UNCONSTRAINED } from '../../kernel/vocabulary.js';
import type { ResourceEvent } from './ResourceEvent.js';
import { checkTypes } from './sourceChecks.js';

/**
 * What differs between the kinds of item that share the resource lifecycle (resources, schemas):
 * the same commands, states and events, with the kind's own log key, event names and payload rules.
 */
export interface ItemKind {
  name: Extract<Kind, 'resources' | 'schemas'>;
  /** Event type prefix in the log: `ResourceCreated`, `SchemaCreated`, ... */
  prefix: 'Resource' | 'Schema';
  key(project: ProjectRef, id: string): string;
  /** The schema a `_` segment names. */
  defaultSchema: string;
  /** Contexts every payload of the kind is read with, before its own. */
  contexts: string[];
  /** Checks the types of an expanded payload; returns the item's types (a kind may add its own). */
  admitTypes(expansion: Expansion): string[];
}

export const RESOURCE_KIND: ItemKind = {
  name: 'resources',
  prefix: 'Resource',
  key: resourceKey,
  defaultSchema: UNCONSTRAINED,
  contexts: [],
  admitTypes: (expansion) => {
    checkTypes(expansion.types);
    return expansion.types;
  },
};

/** The event as the log records it, under the kind's own event type names. */
export const loggedEvent = (event: ResourceEvent, kind: ItemKind): { type: string; instant: string } =>
  kind.prefix === 'Resource' ? event : { ...event, type: `${kind.prefix}${event.type.slice('Resource'.length)}` };

/** A logged event of any kind sharing the lifecycle, as the resource event it folds as. */
export const resourceEventOf = (logged: { type: string }): ResourceEvent =>
  (logged.type.startsWith('Schema') ? { ...logged, type: `Resource${logged.type.slice('Schema'.length)}` } : logged) as ResourceEvent;
