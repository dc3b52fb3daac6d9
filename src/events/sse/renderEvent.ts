import { context, SHACL_SCHEMA, STORAGES_SCHEMA } from '../../domain/vocabulary.js';
import type { LogEvent } from '../EventLog.js';

/** What rendering needs beyond the event: the project UUIDs and, for events that do not carry it, the item's schema. */
export interface RenderLookups {
  baseUrl: string;
  projectUuids(ref: string): { uuid: string; orgUuid: string } | undefined;
  schemaOf(key: string): { schema: string; schemaProject: string } | undefined;
}

/** One server-sent event: `event:` is the payload's `@type`. */
export interface RenderedEvent {
  type: string;
  data: string;
}

type Fields = Record<string, unknown>;

const METADATA = context('metadata');

const subjectIri = (base: string, subject: unknown) => `${base}/v1/${String(subject)}`;

/** Events of resources, schemas and storages (spec §6 "Payload fields"); `expanded` and internals never leave the server. */
const itemPayload = (logged: LogEvent, e: Fields, look: RenderLookups): Fields => {
  const type = String(e['type']);
  const isTag = type.endsWith('TagAdded') || type.endsWith('TagDeleted');
  const hasSource = type.endsWith('Created') || (type.endsWith('Updated') && !type.endsWith('SchemaUpdated'));
  const ref = String(e['project'] ?? logged.project ?? '');
  const uuids = look.projectUuids(ref);
  // Resource events other than content ones do not carry the schema: the item's current one stands in.
  const fallback = e['schema'] === undefined && logged.kind === 'resources' ? look.schemaOf(logged.key) : undefined;
  const defaultSchema = logged.kind === 'schemas' ? SHACL_SCHEMA : logged.kind === 'storages' ? STORAGES_SCHEMA : undefined;
  const schema = e['schema'] ?? fallback?.schema ?? defaultSchema;
  const schemaProject = e['schemaProject'] ?? fallback?.schemaProject ?? ref;
  const id = e['id'];
  const payload: Fields = {
    '@context': logged.kind === 'storages' ? [METADATA, context('storages')] : METADATA,
    '@type': type,
    _resourceId: id,
    ...(logged.kind === 'schemas' ? { _schemaId: id } : {}),
    ...(logged.kind === 'storages' ? { _storageId: id } : {}),
    ...(hasSource && e['source'] !== undefined ? { _source: e['source'] } : {}),
    _types: Array.isArray(e['types']) ? e['types'] : [],
    ...(!isTag && schema !== undefined ? { _constrainedBy: schema } : {}),
    _project: ref,
    _schemaProject: schemaProject,
    _instant: e['instant'],
    ...(uuids ? { _projectUuid: uuids.uuid, _organizationUuid: uuids.orgUuid } : {}),
    _rev: e['rev'],
    _subject: subjectIri(look.baseUrl, e['subject']),
  };
  if (e['tag'] !== undefined) payload['tag'] = e['tag'];
  if (e['targetRev'] !== undefined) payload['targetRev'] = e['targetRev'];
  return payload;
};

/** Organization events, as Delta renders them on the global stream. */
const orgPayload = (e: Fields, look: RenderLookups): Fields => ({
  '@context': [METADATA, context('organizations')],
  '@type': e['type'],
  _organizationId: `${look.baseUrl}/v1/orgs/${String(e['label'])}`,
  _label: e['label'],
  _uuid: e['uuid'],
  ...(e['description'] !== undefined ? { description: e['description'] } : {}),
  _rev: e['rev'],
  _instant: e['instant'],
  _subject: subjectIri(look.baseUrl, e['subject']),
});

/** Project events: the project fields (when the event carries them) plus identity. */
const projectPayload = (e: Fields, look: RenderLookups): Fields => {
  const self = `${look.baseUrl}/v1/projects/${String(e['org'])}/${String(e['label'])}`;
  const fields = (e['fields'] ?? {}) as Fields;
  return {
    '@context': [METADATA, context('projects')],
    '@type': e['type'],
    _projectId: self,
    _resourceId: self,
    _label: e['label'],
    _uuid: e['uuid'],
    _organizationLabel: e['org'],
    _organizationUuid: e['orgUuid'],
    ...fields,
    _rev: e['rev'],
    _instant: e['instant'],
    _subject: subjectIri(look.baseUrl, e['subject']),
  };
};

/** Any other kind (ACLs, realms, permissions): its own fields with the common `_` ones, minus internals. */
const genericPayload = (e: Fields, look: RenderLookups): Fields => {
  const { type, rev, instant, subject, expanded: _expanded, ...rest } = e;
  return { '@context': METADATA, '@type': type, ...rest, _rev: rev, _instant: instant, _subject: subjectIri(look.baseUrl, subject) };
};

export const renderEvent = (logged: LogEvent, look: RenderLookups): RenderedEvent => {
  const e = logged.event as unknown as Fields;
  let payload: Fields;
  switch (logged.kind) {
    case 'resources':
    case 'schemas':
    case 'storages':
      payload = itemPayload(logged, e, look);
      break;
    case 'orgs':
      payload = orgPayload(e, look);
      break;
    case 'projects':
      payload = projectPayload(e, look);
      break;
    default:
      payload = genericPayload(e, look);
  }
  return { type: String(payload['@type']), data: JSON.stringify(payload) };
};

/** The wire frame: `data:`, `event:`, `id:` lines and a blank line (JSON text never holds a raw newline). */
export const frame = (seq: number, event: RenderedEvent): string => `data:${event.data}\nevent:${event.type}\nid:${seq}\n\n`;
