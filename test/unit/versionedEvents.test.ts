import { expect } from 'chai';
import type { LogEvent } from '../../src/events/EventLog.js';
import { Addresses } from '../../src/kernel/Addresses.js';
import { Rejection } from '../../src/kernel/Rejection.js';
import type { RenderLookups } from '../../src/kernel/RenderLookups.js';
import type { CommandDefinition, DomainEvent, KindDefinition } from '../../src/domain/KindDefinition.js';
import type { ItemRules } from '../../src/domain/versionedDefinition.js';
import type { Versioned } from '../../src/domain/versioned.js';
import { fileDefinition } from '../../src/modules/files/files/fileDefinition.js';
import { storageDefinition } from '../../src/modules/files/storages/storageDefinition.js';
import { viewDefinition } from '../../src/modules/views/viewDefinition.js';
import { resolverDefinition } from '../../src/resolvers/resolverDefinition.js';

const NXV = 'https://bluebrain.github.io/nexus/vocabulary/';
const CONTEXTS = 'https://bluebrain.github.io/nexus/contexts/';
const look: RenderLookups = {
  addresses: new Addresses('http://registry.test'),
  projectUuids: () => ({ uuid: 'pu', orgUuid: 'ou' }),
  schemaOf: () => undefined,
};
const target = { id: `${NXV}x`, project: 'o/p', instant: '2026-01-01T00:00:00.000Z', subject: 'anonymous' };

/** Evaluates `commands` in turn from no item, folding each event: the rendered events, in order. */
const streamed = <V, C>(
  definition: KindDefinition<Versioned<V>> & CommandDefinition<Versioned<V>, C, DomainEvent & { rev: number }> & ItemRules,
  commands: NoInfer<C>[],
): Record<string, unknown>[] => {
  let state: Versioned<V> | undefined;
  return commands.map((cmd, i) => {
    const event = definition.evaluate(state, cmd);
    if (!event || event instanceof Rejection) throw new Error(`command ${i} refused: ${String(event)}`);
    const logged = { seq: i + 1, key: definition.key('o/p', target.id), kind: definition.kind, project: 'o/p', rev: i + 1, event } as unknown as LogEvent;
    state = definition.next(state, logged);
    return definition.render(logged, look);
  });
};
const tag = { type: 'Tag', rev: 1, tag: 'v1', targetRev: 1, ...target } as const;
const HEAD = ['@context', '@type'];
const TAIL = ['_project', '_instant', '_projectUuid', '_organizationUuid', '_rev', '_subject'];

// Clients read these bodies as Delta writes them: the fields, their order, and which events leave out the schema.
describe('the streamed events of kinds kept whole per revision', () => {
  it('storages: _source on a create, no _constrainedBy on a tag', () => {
    const fields = {
      type: 'DiskStorage',
      default: true,
      volume: '/v',
      readPermission: 'resources/read',
      writePermission: 'files/write',
      maxFileSize: 10,
    } as const;
    const [created, tagged] = streamed(storageDefinition, [{ type: 'Create', ...target, fields, source: { '@type': 'DiskStorage' } }, tag]);
    expect(Object.keys(created!)).to.deep.equal([...HEAD, '_storageId', '_resourceId', '_source', '_types', '_constrainedBy', ...TAIL]);
    expect(created!['@context']).to.deep.equal([`${CONTEXTS}metadata.json`, `${CONTEXTS}storages.json`]);
    expect(created!['_types']).to.deep.equal([`${NXV}Storage`, `${NXV}DiskStorage`]);
    expect(Object.keys(tagged!)).to.deep.equal([...HEAD, '_storageId', '_resourceId', '_types', ...TAIL, 'tag', 'targetRev']);
  });

  it('files: their attributes and storage after the ids, never _constrainedBy', () => {
    const attributes = { uuid: 'u', path: 'a/b', filename: 'f.txt', mediaType: 'text/plain', bytes: 3, digest: 'd' };
    const storage = { id: `${NXV}s`, type: 'DiskStorage', rev: 1 } as const;
    const [created, tagged] = streamed(fileDefinition, [{ type: 'Create', ...target, attributes, storage }, tag]);
    expect(Object.keys(created!)).to.deep.equal([...HEAD, '_fileId', '_resourceId', '_attributes', '_storage', '_types', ...TAIL]);
    expect(created!['_storage']).to.deep.equal({ '@id': `${NXV}s`, '@type': 'DiskStorage', _rev: 1 });
    expect(Object.keys(tagged!)).to.deep.equal([...HEAD, '_fileId', '_resourceId', '_types', ...TAIL, 'tag', 'targetRev']);
  });

  it('resolvers: _constrainedBy on every event', () => {
    const fields = { type: 'InProject', priority: 1 } as const;
    const [created, tagged] = streamed(resolverDefinition, [{ type: 'Create', ...target, fields, source: { priority: 1 } }, tag]);
    expect(Object.keys(created!)).to.deep.equal([...HEAD, '_resolverId', '_resourceId', '_source', '_types', '_constrainedBy', ...TAIL]);
    expect(Object.keys(tagged!)).to.deep.equal([...HEAD, '_resolverId', '_resourceId', '_types', '_constrainedBy', ...TAIL, 'tag', 'targetRev']);
    expect(tagged!['_constrainedBy']).to.equal('https://bluebrain.github.io/nexus/schemas/resolvers.json');
  });

  it("views: their family's context and event names", () => {
    const [sparql] = streamed(viewDefinition, [{ type: 'Create', ...target, fields: { type: 'SparqlView' }, source: {} }]);
    const [es, tagged] = streamed(viewDefinition, [{ type: 'Create', ...target, fields: { type: 'ElasticSearchView' }, source: {} }, tag]);
    expect(sparql!['@type']).to.equal('BlazegraphViewCreated');
    expect(sparql!['@context']).to.deep.equal([`${CONTEXTS}metadata.json`, `${CONTEXTS}sparql.json`]);
    expect(es!['@context']).to.deep.equal([`${CONTEXTS}metadata.json`, `${CONTEXTS}elasticsearch.json`]);
    expect(Object.keys(es!)).to.deep.equal([...HEAD, '_viewId', '_resourceId', '_source', '_types', '_constrainedBy', ...TAIL]);
    expect(tagged!['@type']).to.equal('ElasticSearchViewTagAdded');
    expect(Object.keys(tagged!)).to.deep.equal([...HEAD, '_viewId', '_resourceId', '_types', '_constrainedBy', ...TAIL, 'tag', 'targetRev']);
  });
});
