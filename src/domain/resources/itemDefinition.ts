import type { LogEvent } from '../../events/EventLog.js';
import type { RenderLookups } from '../../kernel/RenderLookups.js';
import type { CommandDefinition, KindDefinition } from '../KindDefinition.js';
import { rejections } from '../rejections.js';
import { revConflict } from '../revConflict.js';
import { schemaBase } from '../schemas/schemaRef.js';
import { context, SHACL_SCHEMA } from '../../kernel/vocabulary.js';
import type { ItemKind } from './ItemKind.js';
import { loggedEvent, resourceEventOf } from './ItemKind.js';
import type { ResourceCommand, ResourceState } from './Resource.js';
import { evaluateResource, nextResource } from './Resource.js';
import type { ResourceEvent } from './ResourceEvent.js';
import { isContentEvent } from './ResourceEvent.js';

type Fields = Record<string, unknown>;

/** Events of the kinds sharing the resource lifecycle (spec §6 "Payload fields"); `expanded` and internals never leave the server. */
const render =
  (kind: ItemKind) =>
  (logged: LogEvent, look: RenderLookups): Fields => {
    const e = logged.event as unknown as Fields;
    const type = String(e['type']);
    const isTag = type.endsWith('TagAdded') || type.endsWith('TagDeleted');
    const hasSource = type.endsWith('Created') || (type.endsWith('Updated') && !type.endsWith('SchemaUpdated'));
    const ref = String(e['project'] ?? logged.project ?? '');
    const uuids = look.projectUuids(ref);
    // Resource events other than content ones do not carry the schema: the item's current one stands in.
    const fallback = e['schema'] === undefined && kind.name === 'resources' ? look.schemaOf(logged.key) : undefined;
    const schema = e['schema'] ?? fallback?.schema ?? (kind.name === 'schemas' ? SHACL_SCHEMA : undefined);
    const schemaProject = e['schemaProject'] ?? fallback?.schemaProject ?? ref;
    const id = e['id'];
    const payload: Fields = {
      '@context': context('metadata'),
      '@type': type,
      _resourceId: id,
      ...(kind.name === 'schemas' ? { _schemaId: id } : {}),
      ...(hasSource && e['source'] !== undefined ? { _source: e['source'] } : {}),
      _types: Array.isArray(e['types']) ? e['types'] : [],
      ...(!isTag && schema !== undefined ? { _constrainedBy: schemaBase(String(schema)) } : {}),
      _project: ref,
      _schemaProject: schemaProject,
      _instant: e['instant'],
      ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
      _rev: e['rev'],
      _subject: look.addresses.subject(String(e['subject'])),
    };
    if (e['tag'] !== undefined) payload['tag'] = e['tag'];
    if (e['targetRev'] !== undefined) payload['targetRev'] = e['targetRev'];
    return payload;
  };

/**
 * The definition of a kind sharing the resource lifecycle (resources, schemas): states keyed by
 * the log key, a revision graph per revision, a catalogue row per item.
 */
export const itemDefinition = (kind: ItemKind): KindDefinition<ResourceState> & CommandDefinition<ResourceState, ResourceCommand, ResourceEvent> => ({
  kind: kind.name,
  stateKey: (logged) => logged.key,
  keyOf: (state) => kind.key(state.project, state.id),
  next: (state, logged) => nextResource(state, resourceEventOf(logged.event), logged.seq),
  evaluate: evaluateResource,
  conflict: revConflict((cmd) => rejections.alreadyExists(cmd.id, cmd.project)),
  logged: (event) => loggedEvent(event, kind),
  revAfter: (event) => (event.type === 'ResourceDeleted' ? 0 : event.rev),
  render: render(kind),
  revision: (previous, next, logged) => {
    const event = resourceEventOf(logged.event);
    if (isContentEvent(event)) return { expanded: event.expanded, source: event.source };
    return previous && next.rev !== previous.rev ? 'unchanged' : undefined;
  },
  listed: (r) => ({
    project: r.project,
    id: r.id,
    rev: r.rev,
    deprecated: r.deprecated,
    types: r.types,
    schema: schemaBase(r.schema),
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    updatedAt: r.updatedAt,
    updatedBy: r.updatedBy,
    links: r.links,
  }),
});
