import { Addresses } from '../../src/kernel/Addresses.js';
import { expect } from 'chai';
import type { LogEvent } from '../../src/events/EventLog.js';
import { frame, renderEvent } from '../../src/streams/renderEvent.js';
import type { EventRenderers, RenderLookups } from '../../src/streams/renderEvent.js';
import { orgDefinition } from '../../src/domain/orgs/orgDefinition.js';
import { projectDefinition } from '../../src/domain/projects/projectDefinition.js';
import { itemDefinition } from '../../src/domain/resources/itemDefinition.js';
import { RESOURCE_KIND } from '../../src/domain/resources/ItemKind.js';
import { SCHEMA_KIND } from '../../src/domain/schemas/schemaKind.js';

const BASE = 'http://registry.test';
const look: RenderLookups = {
  addresses: new Addresses(BASE),
  projectUuids: (ref) => (ref === 'o/p' ? { uuid: 'pu', orgUuid: 'ou' } : undefined),
  schemaOf: () => ({ schema: 'http://s/current', schemaProject: 'o/q' }),
};
const definitions = [orgDefinition, projectDefinition, itemDefinition(RESOURCE_KIND), itemDefinition(SCHEMA_KIND)];
const renderers: EventRenderers = { definitionOf: (kind) => definitions.find((d) => d.kind === kind) };
const logged = (kind: LogEvent['kind'], event: Record<string, unknown>): LogEvent => ({
  seq: 7,
  key: `${kind}/o/p/x`,
  kind,
  org: 'o',
  project: 'o/p',
  rev: Number(event['rev']),
  event: { instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous', id: 'http://x', project: 'o/p', ...event } as unknown as LogEvent['event'],
});

describe('renderEvent', () => {
  it('renders schema events generically with _schemaId and the SHACL schema', () => {
    const rendered = renderEvent(
      logged('schemas', {
        type: 'SchemaCreated',
        rev: 1,
        types: ['https://bluebrain.github.io/nexus/vocabulary/Schema'],
        source: { shapes: [] },
        expanded: [{}],
      }),
      renderers,
      look,
    );
    const payload = JSON.parse(rendered.data);
    expect(rendered.type).to.equal('SchemaCreated');
    expect(payload).to.deep.include({
      '@type': 'SchemaCreated',
      _resourceId: 'http://x',
      _schemaId: 'http://x',
      _source: { shapes: [] },
      _constrainedBy: 'https://bluebrain.github.io/nexus/schemas/shacl-20170720.ttl',
      _project: 'o/p',
      _projectUuid: 'pu',
      _organizationUuid: 'ou',
      _subject: `${BASE}/v1/anonymous`,
    });
    expect(payload).to.not.have.property('expanded');
  });

  it('renders the events of a kind without a definition with their own fields and the common ones, minus internals', () => {
    const payload = JSON.parse(renderEvent(logged('acls', { type: 'AclReplaced', rev: 2, path: '/', expanded: [{}] }), renderers, look).data);
    expect(payload).to.include({ '@type': 'AclReplaced', path: '/', _rev: 2, _subject: `${BASE}/v1/anonymous` });
    expect(payload).to.not.have.property('expanded');
  });

  it('takes the schema of a resource event that does not carry one from the current state', () => {
    const payload = JSON.parse(renderEvent(logged('resources', { type: 'ResourceDeprecated', rev: 3, types: [] }), renderers, look).data);
    expect(payload).to.include({ _constrainedBy: 'http://s/current', _schemaProject: 'o/q' });
    expect(payload).to.not.have.property('_source');
  });

  it('frames an event as data, event and id lines', () => {
    expect(frame(42, { type: 'T', data: '{"a":"b\\nc"}' })).to.equal('data:{"a":"b\\nc"}\nevent:T\nid:42\n\n');
  });
});
